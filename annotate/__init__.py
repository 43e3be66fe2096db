"""Teacher-LLM annotation of kernel units, and the verifiers that judge what the teacher writes."""
