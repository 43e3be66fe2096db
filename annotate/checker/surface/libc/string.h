#pragma once
#include "cstring"
