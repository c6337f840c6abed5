// CellWriter: where CollectionModel sends the write of one edited cell, when something other than
// the Controller should send it (an undo stack records it: DataClient::UndoRecorder).
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/params.h>

#include <QtCore/QFuture>
#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QVariant>

namespace DataClient {

//! One cell edit of a CollectionModel, as it would be sent.
struct CellEdit
{
    //! The write endpoint (a PATCH of the field, or a PUT of the record).
    EndpointPtr endpoint;
    //! Its parameters: the row's primary key fills the path's last one.
    Params params;
    //! What is sent: the field alone (PATCH) or the record with the field replaced (PUT).
    QJsonObject body;
    //! The edited field.
    QString field;
    //! The field that names the row (its first text column) and its text before the edit, for
    //! messages such as "rename 'Buy milk'"; empty when the row has no text column.
    QString labelField;
    QString label;
};

/*!
    Sends the writes of a CollectionModel's edited cells (CollectionModel::setEditable()). The
    model calls writeCell() instead of Controller::fetch(); the future tells it of a refusal
    (writeFailed()). Not owned by the model: it must outlive the model, or be replaced first.
*/
class CellWriter
{
public:
    virtual ~CellWriter() = default;
    virtual QFuture<QVariant> writeCell(const CellEdit &edit) = 0;

protected:
    CellWriter() = default;
    CellWriter(const CellWriter &) = default;
    CellWriter &operator=(const CellWriter &) = default;
};

} // namespace DataClient
