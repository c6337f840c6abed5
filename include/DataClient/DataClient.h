// Umbrella header: everything an app needs from DataClient.
#pragma once

#include <DataClient/global.h>
#include <DataClient/version.h>
#include <DataClient/decimal.h>
#include <DataClient/deserializer.h>
#include <DataClient/entityschema.h>
#include <DataClient/collection.h>
#include <DataClient/schema.h>
#include <DataClient/schemaerror.h>
#include <DataClient/params.h>
#include <DataClient/store.h>
#include <DataClient/entityrefset.h>
#include <DataClient/record.h>
#include <DataClient/compactjson.h>
#include <DataClient/preparedwrite.h>
#include <DataClient/pathtemplate.h>
#include <DataClient/networkerror.h>
#include <DataClient/conditionalrequest.h>
#include <DataClient/retrypolicy.h>
#include <DataClient/restendpoint.h>
#include <DataClient/resource.h>
#include <DataClient/createresource.h>
#include <DataClient/connectivity.h>
#include <DataClient/controller.h>
#include <DataClient/collectionmodel.h>
#include <DataClient/qmlcontroller.h>
