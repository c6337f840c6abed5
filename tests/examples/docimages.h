// The pictures in the docs (README.md, docs/examples.md, docs/widgets.md) are what the example
// tests see: a test that renders one passes it here, and with DATACLIENT_UPDATE_DOC_IMAGES set in
// the environment it is written to docs/images/ (a normal run leaves the sources alone), e.g.
//   DATACLIENT_UPDATE_DOC_IMAGES=1 ctest -R 'tst_demo$|tst_demoui_feedback|tst_todowidgets'
#pragma once

#include <QtCore/QDir>
#include <QtCore/QString>
#include <QtGui/QImage>

namespace DocImages {

//! Whether this run updates the docs' pictures.
inline bool updating()
{
    return qEnvironmentVariableIsSet("DATACLIENT_UPDATE_DOC_IMAGES");
}

//! With DATACLIENT_UPDATE_DOC_IMAGES set, saves \a image as docs/images/<name>; false only if
//! that was asked for and failed.
inline bool publish(const QImage &image, const QString &name)
{
    if (!updating())
        return true;
    const QString file = QDir(QStringLiteral(DATACLIENT_DOC_IMAGES_DIR)).filePath(name);
    const bool saved = image.save(file);
    qInfo("%s %s", saved ? "updated" : "could not write", qPrintable(file));
    return saved;
}

} // namespace DocImages
