// A TokenSource a test drives: token() and refresh() answer at once, later (the test finishes
// the promise), never, or with a failure; it counts the calls.
#pragma once

#include <DataClient/networkerror.h>
#include <DataClient/tokensource.h>

#include <QtCore/QPromise>

#include <memory>
#include <optional>

class TestTokenSource : public DataClient::TokenSource
{
    Q_OBJECT

public:
    enum class Answer { Now, Later, Fail, Never };

    using DataClient::TokenSource::TokenSource;

    //! What token() answers, and with which token.
    Answer tokenAnswer = Answer::Now;
    QString current = QStringLiteral("t1");
    //! What refresh() answers; a refresh gives "t<n+1>" unless next is set.
    Answer refreshAnswer = Answer::Later;
    std::optional<QString> next;
    QDateTime expiry;

    int tokenCalls = 0;
    int refreshCalls = 0;
    int forgetCalls = 0;

    QFuture<QString> token() override
    {
        ++tokenCalls;
        return answer(tokenAnswer, current);
    }
    QFuture<QString> refresh() override
    {
        ++refreshCalls;
        const QString fresh
            = next.value_or(QStringLiteral("t%1").arg(QStringView(current).mid(1).toInt() + 1));
        return answer(refreshAnswer, fresh);
    }
    QDateTime expiresAt() const override { return expiry; }
    void forget() override
    {
        ++forgetCalls;
        current.clear();
    }

    //! Whether an answer given Later is still to come.
    bool pending() const { return m_promise != nullptr; }
    //! Gives the answer held since token() or refresh() (Later).
    void finish()
    {
        std::unique_ptr<QPromise<QString>> promise = std::move(m_promise);
        current = m_later;
        promise->addResult(m_later);
        promise->finish();
    }
    //! Fails the answer held since token() or refresh() (Later).
    void fail(const QString &why)
    {
        std::unique_ptr<QPromise<QString>> promise = std::move(m_promise);
        promise->setException(
            DataClient::NetworkError(DataClient::NetworkError::Kind::Other, 0, why));
        promise->finish();
    }

private:
    QFuture<QString> answer(Answer how, const QString &value)
    {
        switch (how) {
        case Answer::Now:
            current = value;
            return makeReady(value);
        case Answer::Fail:
            return QtFuture::makeExceptionalFuture<QString>(
                DataClient::NetworkError(DataClient::NetworkError::Kind::Other, 0,
                                         QStringLiteral("the keychain is locked")));
        case Answer::Later:
        case Answer::Never:
            break;
        }
        auto promise = std::make_unique<QPromise<QString>>();
        promise->start();
        QFuture<QString> future = promise->future();
        m_later = value;
        if (how == Answer::Later)
            m_promise = std::move(promise);
        else
            m_never.push_back(std::move(promise)); // finished (canceled) when the test ends
        return future;
    }
    static QFuture<QString> makeReady(const QString &value)
    {
        QPromise<QString> promise;
        promise.start();
        promise.addResult(value);
        promise.finish();
        return promise.future();
    }

    std::unique_ptr<QPromise<QString>> m_promise;
    std::vector<std::unique_ptr<QPromise<QString>>> m_never;
    QString m_later;
};
