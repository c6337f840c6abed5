// The Django REST Framework server of tests/servers/django, run for a test case: a fresh SQLite
// database in a temporary folder, 127.0.0.1 on an ephemeral port, killed when the test ends.
#pragma once

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFileInfo>
#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtCore/QUrl>
#include <QtNetwork/QTcpSocket>
#include <QTest>

class DjangoServer
{
public:
    ~DjangoServer()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.kill();
        m_process.waitForFinished(5000);
    }

    /*!
        Starts tests/servers/django/serve.py with a Python that has Django, Django REST
        Framework and django-filter (the environment's DATACLIENT_DJANGO_PYTHON, else
        /usr/bin/python3, else python3 on the PATH), waits for the port it prints, and for that
        port to accept a connection. Returns false and sets \a why when it cannot.
    */
    bool start(QString *why)
    {
        QElapsedTimer clock;
        clock.start();
        const QString script = QStringLiteral(DATACLIENT_DJANGO_DIR "/serve.py");
        m_process.setProgram(python());
        m_process.setArguments({script, m_dir.filePath(QStringLiteral("db.sqlite3"))});
        m_process.start();
        if (!m_process.waitForStarted(10000)) {
            *why = QStringLiteral("could not start %1: %2").arg(python(), m_process.errorString());
            return false;
        }
        // The runner prints "LISTENING <port>" once its socket listens.
        QByteArray out;
        while (!out.contains('\n')) {
            if (!m_process.waitForReadyRead(30000)) {
                *why = QStringLiteral("%1 %2 printed no port; its error output:\n%3")
                           .arg(python(), script,
                                QString::fromLocal8Bit(m_process.readAllStandardError()));
                return false;
            }
            out += m_process.readAllStandardOutput();
        }
        const QList<QByteArray> words = out.trimmed().split(' ');
        m_port = words.size() == 2 && words.at(0) == "LISTENING" ? words.at(1).toInt() : 0;
        if (m_port <= 0) {
            *why = QStringLiteral("unexpected output of %1: %2")
                       .arg(script, QString::fromLocal8Bit(out));
            return false;
        }
        // Poll the port: a connection accepted is a server ready for requests.
        QTcpSocket probe;
        for (int attempt = 0; attempt < 100; ++attempt) {
            probe.connectToHost(QStringLiteral("127.0.0.1"), quint16(m_port));
            if (probe.waitForConnected(100)) {
                m_startMs = clock.elapsed();
                return true;
            }
            probe.abort();
        }
        *why = QStringLiteral("port %1 never accepted a connection").arg(m_port);
        return false;
    }

    //! "http://127.0.0.1:<port>"
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    qint64 startMs() const { return m_startMs; }

    static QString python()
    {
        const QByteArray chosen = qgetenv("DATACLIENT_DJANGO_PYTHON");
        if (!chosen.isEmpty())
            return QString::fromLocal8Bit(chosen);
        // Debian's packages live in the system Python, which a pyenv or venv on the PATH hides.
        if (QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable())
            return QStringLiteral("/usr/bin/python3");
        return QStandardPaths::findExecutable(QStringLiteral("python3"));
    }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    int m_port = 0;
    qint64 m_startMs = 0;
};
