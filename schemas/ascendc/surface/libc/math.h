#pragma once
#include "cmath"
