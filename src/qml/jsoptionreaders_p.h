// Readers of endpoint options written in JS, one per C++ type of the shared options
// (DATACLIENT_SHARED_ENDPOINT_OPTIONS), and the value QML reads for an option nobody set: the
// overload sets the option table of jsoptions.cpp picks from by the option's type. Each reader
// returns std::nullopt when the value fits, else " must be <what>; got <value>".
#pragma once

#include <DataClient/endpointoptions.h>

#include <QtCore/QString>
#include <QtCore/QVariant>
#include <QtQml/QJSValue>

#include <optional>

namespace DataClient::Qml::detail {

//! Why a value does not fit its option, or std::nullopt when it does.
using Problem = std::optional<QString>;

QString expected(const QJSValue &value, const char *what);
Problem readJs(const QJSValue &v, std::optional<int> &target);
Problem readJs(const QJSValue &v, std::optional<qint64> &target);
Problem readJs(const QJSValue &v, std::optional<Credentials> &target);
Problem readJs(const QJSValue &v, std::optional<Headers> &target);
Problem readString(const QJSValue &v, std::optional<QString> &target);
Problem readBool(const QJSValue &v, std::optional<bool> &target);
Problem readJs(const QJSValue &v, std::optional<bool> &target);
Problem readJs(const QJSValue &v, std::optional<std::optional<RetryPolicy>> &target);
Problem readJs(const QJSValue &v, std::optional<KeyCase> &target);
Problem readJs(const QJSValue &v, std::optional<Csrf> &target);
Problem readJs(const QJSValue &v, std::optional<Pagination> &target);
QVariant toVariant(int value);
QVariant toVariant(qint64 value);
QVariant toVariant(bool value);
QVariant toVariant(const std::optional<RetryPolicy> &value);
QVariant toVariant(KeyCase value);
QVariant toVariant(Pagination value);
QVariant toVariant(const Csrf &value);
QVariant toVariant(Credentials value);
QVariant toVariant(const Headers &headers);

} // namespace DataClient::Qml::detail
