// Numbers as text for primary keys and collection arguments: one rule for every path (the
// compact tree, QJsonValue, QVariant), so that one id is one entity however it arrived.
#pragma once

#include <DataClient/private/node_p.h>

#include <QtCore/QString>

namespace DataClient::detail {

//! A double as key text: a whole number in full digits below 1e21 (as JavaScript's String()
//! writes it; beyond 2^53 these are the double's digits, not necessarily the server's), anything
//! else in the shortest form that reads back the same.
DATACLIENT_JSON_EXPORT QString numberText(double number);
//! A String or number Value as a primary key: an Integer's exact digits, a BigInteger's digits
//! as the server sent them, a Number by numberText(); empty for anything else.
DATACLIENT_JSON_EXPORT QString pkText(const Value &value, const Node *owner);

} // namespace DataClient::detail
