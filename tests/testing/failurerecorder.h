// Records the failures the testing kit reports (instead of failing the test), so that a test
// can check their messages and locations; restores the previous handler when destroyed.
#pragma once

#include <DataClient/testing/await.h>

#include <QtCore/QList>
#include <QtCore/QString>

struct RecordedFailure
{
    QString message;
    QString file;
    int line = 0;
};

class FailureRecorder
{
public:
    FailureRecorder()
        : m_previous(DataClient::Testing::setFailureHandler(
            [this](const QString &message, const char *file, int line) {
                failures.append({message, QString::fromUtf8(file), line});
            }))
    { }
    ~FailureRecorder() { DataClient::Testing::setFailureHandler(m_previous); }
    FailureRecorder(const FailureRecorder &) = delete;
    FailureRecorder &operator=(const FailureRecorder &) = delete;

    QString last() const { return failures.isEmpty() ? QString() : failures.last().message; }

    QList<RecordedFailure> failures;

private:
    DataClient::Testing::FailureHandler m_previous;
};
