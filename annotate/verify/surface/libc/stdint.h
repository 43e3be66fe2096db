#pragma once
#include "cstdint"
