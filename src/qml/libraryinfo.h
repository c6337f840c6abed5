// `DataClientInfo` QML singleton: the library version, so QML can show or check it.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QObject>
#include <QtQml/qqmlregistration.h>

namespace DataClient::Qml {

class DATACLIENT_QML_EXPORT LibraryInfo : public QObject
{
    Q_OBJECT
    QML_NAMED_ELEMENT(DataClientInfo)
    QML_SINGLETON
    Q_PROPERTY(QString version READ version CONSTANT)
public:
    using QObject::QObject;
    QString version() const;
};

} // namespace DataClient::Qml
