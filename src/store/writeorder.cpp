// Which of two writes of one record is the newer: the server's word when the entity names a
// version field (or a shouldUpdate hook), otherwise the date rule (the write dated later wins).
// A push and a fetch answer about the same record then end on the server's latest, whatever
// order they arrive in.
#include "normalizer_p.h"
#include "storeprivate_p.h"

#include <DataClient/private/entityschema_p.h>

namespace DataClient {

using namespace detail;

bool StorePrivate::incomingIsNewer(const EntitySchemaPrivate *schema, const Node *existing,
                                   const Node *incoming, bool byDate)
{
    if (!schema || !existing || !incoming)
        return byDate;
    if (schema->shouldUpdate)
        return schema->shouldUpdate(objectJson(existing), objectJson(incoming));
    if (schema->versionField.isEmpty())
        return byDate;
    const QStringView field(schema->versionField);
    const Value *stored = existing->field(field);
    const Value *next = incoming->field(field);
    if (!stored || !next)
        return byDate;
    if (stored->isNumber() && next->isNumber())
        return incoming->toDouble(*next) >= existing->toDouble(*stored);
    if (stored->isString() && next->isString())
        return incoming->string(*next) >= existing->string(*stored);
    return byDate; // not comparable (a number and a string, a null)
}

} // namespace DataClient
