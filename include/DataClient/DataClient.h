// Umbrella header: everything an app needs from DataClient.
#pragma once

#include <DataClient/global.h>
#include <DataClient/version.h>
