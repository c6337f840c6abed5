// The HTTP validators the Controller remembers per cache key, and what a 304 answer means for
// a key (docs/networking.md, "HTTP validators"). Pure: tested alone (tst_validatortable).
#pragma once

#include <DataClient/conditionalrequest.h>

#include <QtCore/QHash>
#include <QtCore/QString>

namespace DataClient::detail {

/*!
    The validators (ETag, Last-Modified) of each key's stored result, as its last 2xx answer
    gave them. An entry lives as long as the result it describes: it is replaced by the next
    answer and dropped with the result (invalidate, reset, a result written by hand), so the
    table never holds more keys than the store holds results.
*/
class ValidatorTable
{
public:
    //! The validators of \a key's stored result; empty when none are known.
    Validators find(const QString &key) const { return m_byKey.value(key); }
    //! A 2xx answer was stored for \a key: its \a validators describe it from now on (empty
    //! ones forget the key: the old ones describe a result that is gone).
    void remember(const QString &key, const Validators &validators);
    void forget(const QString &key) { m_byKey.remove(key); }
    void clear() { m_byKey.clear(); }
    qsizetype size() const { return m_byKey.size(); }

    //! What to do with a 304 Not Modified answer to a read.
    enum class NotModified {
        Keep, //!< it confirms the stored result: renew its expiry, change nothing else
        Refetch, //!< it confirms nothing we hold: ask again, without validators
        Fail, //!< a refetch without validators was answered 304 too: fail the read
    };
    /*!
        The 304 answered a read that sent \a sent (empty: none). \a remembered: the key's
        validators now; \a stored: its result is stored and shown (not invalidated);
        \a refetch: the read already is the refetch that follows an unusable 304.
    */
    static NotModified onNotModified(const Validators &sent, const Validators &remembered,
                                     bool stored, bool refetch);

private:
    QHash<QString, Validators> m_byKey;
};

} // namespace DataClient::detail
