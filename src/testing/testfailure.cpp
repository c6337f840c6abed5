// How the testing kit fails a test, and awaiting: QTest::qFail inside a running test function
// (so that QEXPECT_FAIL applies), a critical message outside one (an app's own harness).
#include "logging_p.h"

#include <DataClient/networkerror.h>
#include <DataClient/testing/await.h>

#include <QtCore/QException>
#include <QtCore/QMetaEnum>
#include <QtCore/QMetaProperty>
#include <QTest>

#include <exception>
#include <utility>

namespace DataClient::Testing {

namespace {
FailureHandler &handler()
{
    static FailureHandler installed;
    return installed;
}
} // namespace

FailureHandler setFailureHandler(FailureHandler handler)
{
    return std::exchange(DataClient::Testing::handler(), std::move(handler));
}

namespace detail {

void failTest(const QString &message, const char *file, int line)
{
    if (const FailureHandler &installed = handler()) {
        installed(message, file, line);
        return;
    }
    if (QTest::currentTestFunction()) {
        QTest::qFail(qPrintable(message), file, line);
        return;
    }
    qCCritical(lcTesting).noquote() << message << "at" << file << line;
}

bool waitForResult(QFuture<void> future, bool hasResult, int timeoutMs, const char *file, int line)
{
    if (!QTest::qWaitFor([&] { return future.isFinished(); }, timeoutMs)) {
        failTest(
            QStringLiteral("Testing::await: the future did not finish within %1 ms").arg(timeoutMs),
            file, line);
        return false;
    }
    // An exception first: a failed QFuture also reports isCanceled().
    try {
        future.waitForFinished();
    } catch (const NetworkError &error) {
        failTest(QStringLiteral("Testing::await: the future failed: ") + error.message(), file,
                 line);
        return false;
    } catch (const QException &error) {
        failTest(QStringLiteral("Testing::await: the future failed: ")
                     + QString::fromUtf8(error.what()),
                 file, line);
        return false;
    } catch (const std::exception &error) {
        failTest(QStringLiteral("Testing::await: the future failed: ")
                     + QString::fromUtf8(error.what()),
                 file, line);
        return false;
    }
    if (future.isCanceled() && !(hasResult && future.resultCount() > 0)) {
        failTest(QStringLiteral("Testing::await: the future was canceled (no value)"), file, line);
        return false;
    }
    return true;
}

bool waitForOutcome(QFuture<void> future, int timeoutMs, std::optional<NetworkError> &error)
{
    if (!QTest::qWaitFor([&] { return future.isFinished(); }, timeoutMs))
        return false;
    try {
        future.waitForFinished();
    } catch (const NetworkError &failure) {
        error = failure;
    } catch (...) {
        error = NetworkError::fromException(std::current_exception());
    }
    return true;
}

} // namespace detail

bool waitForStatus(const QObject *object, int status, int timeoutMs, const char *file, int line)
{
    const QMetaObject *meta = object ? object->metaObject() : nullptr;
    const int index = meta ? meta->indexOfProperty("status") : -1;
    if (index < 0) {
        detail::failTest(QStringLiteral("Testing::waitForStatus: %1 has no status property")
                             .arg(object ? QString::fromLatin1(meta->className())
                                         : QStringLiteral("a null object")),
                         file, line);
        return false;
    }
    const QMetaProperty property = meta->property(index);
    auto current = [&] { return property.read(object).toInt(); };
    if (QTest::qWaitFor([&] { return current() == status; }, timeoutMs))
        return true;
    auto name = [&](int value) {
        const char *key = property.isEnumType() ? property.enumerator().valueToKey(value) : nullptr;
        return key ? QString::fromLatin1(key) : QString::number(value);
    };
    detail::failTest(QStringLiteral("Testing::waitForStatus: %1 stayed %2 for %3 ms; expected %4")
                         .arg(QString::fromLatin1(meta->className()), name(current()))
                         .arg(timeoutMs)
                         .arg(name(status)),
                     file, line);
    return false;
}

} // namespace DataClient::Testing
