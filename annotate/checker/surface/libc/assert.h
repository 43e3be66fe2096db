#pragma once
#include "cassert"
