#pragma once
#include "climits"
