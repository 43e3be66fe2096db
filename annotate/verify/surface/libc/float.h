#pragma once
#include "cfloat"
