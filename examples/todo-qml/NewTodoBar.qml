// A text field and an Add button; emits the title to add.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

RowLayout {
    id: bar

    signal addRequested(string title)

    function submit() {
        const title = field.text.trim();
        if (title === "")
            return;
        bar.addRequested(title);
        field.clear();
    }

    TextField {
        id: field
        placeholderText: qsTr("What needs doing?")
        Layout.fillWidth: true
        onAccepted: bar.submit()
    }
    Button {
        text: qsTr("Add")
        enabled: field.text.trim() !== ""
        onClicked: bar.submit()
    }
}
