// The HTTP validators the Controller remembers per cache key, and what a 304 answer means for
// a key (docs/networking.md, "HTTP validators"). Pure: tested alone (tst_validatortable).
#pragma once

#include <DataClient/private/testexport_p.h>
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
class DATACLIENT_TEST_EXPORT ValidatorTable
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
        Keep, //!< it confirms the stored result: renew its expiry, update its validators
        Refetch, //!< it confirms nothing we hold: ask again, without validators
        Fail, //!< a refetch without validators was answered 304 too: fail the read
    };
    /*!
        The 304 answered a read that sent \a sent (empty: none). \a remembered: the key's
        validators now; \a stored: its result is stored and shown (not invalidated);
        \a refetch: the read already is the refetch that follows an unusable 304;
        \a answered: the validators the 304 itself carries (empty: none).

        A 304 confirms the stored result only when its own validators describe it (RFC 9111
        section 4.3.4): a strong ETag must be the stored one; weak validators (a W/ ETag,
        Last-Modified) must match the stored ones. A 304 that names another version confirms
        nothing, and the result is asked for again without validators. A 304 with no validator
        at all is taken to confirm what the request named (RFC 9110 wants the ETag repeated,
        but servers that leave it out are common, and the request named exactly one version).
    */
    static NotModified onNotModified(const Validators &sent, const Validators &remembered,
                                     bool stored, bool refetch, const Validators &answered = {});
    /*!
        The stored result's validators after a 304 that confirmed it: those the 304 carries
        replace the \a remembered ones (a 304 updates the stored response's header fields, RFC
        9111 section 3.2), the others stay.
    */
    static Validators afterNotModified(const Validators &remembered, const Validators &answered);

private:
    QHash<QString, Validators> m_byKey;
};

} // namespace DataClient::detail
