// Fast paths of the built-in deserializers, reading the store's compact strings in place.
#pragma once

#include <DataClient/deserializer.h>

#include <DataClient/private/node_p.h>

namespace DataClient {

class DeserializerPrivate : public QSharedData
{
public:
    enum class Builtin { None, DateTime, Decimal };
    QString expected;
    Deserializer::Function function;
    Builtin builtin = Builtin::None;

    static const DeserializerPrivate *get(const Deserializer &d) { return d.d.data(); }
};

namespace detail {
//! The deserialized field, or an invalid QVariant when \a value is not valid input.
QVariant deserialize(const Deserializer &deserializer, const Value &value, const Node *owner);
DATACLIENT_SCHEMA_EXPORT bool acceptsValue(const Deserializer &deserializer, const Value &value,
                                           const Node *owner);
//! Whether \a deserializer accepts \a value. Inline for a date the parser already read into an
//! instant (every todo's createdAt): nothing to check again.
inline bool accepts(const Deserializer &deserializer, const Value &value, const Node *owner)
{
    const DeserializerPrivate *d = DeserializerPrivate::get(deserializer);
    qint64 ms = 0;
    if (d && d->builtin == DeserializerPrivate::Builtin::DateTime && value.instant(&ms))
        return true;
    return acceptsValue(deserializer, value, owner);
}
} // namespace detail

} // namespace DataClient
