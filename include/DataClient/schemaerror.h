// SchemaError: why a value does not fit its schema (wrong shape, missing pk, bad field value).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QException>
#include <QtCore/QJsonValue>
#include <QtCore/QString>

namespace DataClient {

/*!
    An error found while normalizing a value (or building a typed value from one). Names the
    entity key, the path of the field inside the response (e.g. "[3].author.id"), what was
    expected and what was found. Also a QException, so a failed QFuture can carry it.
*/
class DATACLIENT_SCHEMA_EXPORT SchemaError : public QException
{
public:
    SchemaError() = default;
    SchemaError(const QString &entityKey, const QString &path, const QString &expected,
                const QString &found);

    //! Key of the entity (or collection) being normalized; empty outside any entity.
    QString entityKey() const { return m_entityKey; }
    //! Where in the value: "" for the top, "[3].author", "results[0].createdAt".
    QString path() const { return m_path; }
    QString expected() const { return m_expected; }
    //! A short rendering of the offending value, e.g. "an array", "\"yesterday\"", "nothing".
    QString found() const { return m_found; }
    //! One sentence with all of the above, for logs and UIs.
    QString message() const;

    const char *what() const noexcept override;
    void raise() const override { throw *this; }
    SchemaError *clone() const override { return new SchemaError(*this); }

    //! Renders a JSON value for found(): strings quoted and cut at 40 characters, types named.
    static QString describe(const QJsonValue &value);

private:
    QString m_entityKey;
    QString m_path;
    QString m_expected;
    QString m_found;
    QByteArray m_what;
};

} // namespace DataClient
