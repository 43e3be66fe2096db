"""parsers: libclang front end for AscendC, repository walker, extractors, classifier, licences."""
