import Foundation
import Importers
import StackLedgerTesting
import Testing

/// The XML form of property lists, read into the same values as the binary form, with the
/// binary reader's bounds.
@Suite("XML property lists")
struct XMLPlistTests {
    func parse(_ text: String) throws -> PlistValue { try XMLPlist.parse(Array(text.utf8)[...]) }

    @Test("every element, entities, CDATA, comments and a byte order mark read as Apple writes them")
    func values() throws {
        let text = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>s</key><string>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#x41;&#66;</string>
            \t<!-- a comment -->
            \t<key>cdata</key><string><![CDATA[<raw> & text]]></string>
            \t<key>empty</key><string/>
            \t<key>i</key><integer> -42 </integer>
            \t<key>hex</key><integer>0x1F</integer>
            \t<key>big</key><integer>18446744073709551615</integer>
            \t<key>r</key><real>2.5e-3</real>
            \t<key>t</key><true/>
            \t<key>f</key><false></false>
            \t<key>d</key><date>2021-12-16T12:00:00Z</date>
            \t<key>data</key><data>
            \tAAEC
            \t/w==
            \t</data>
            \t<key>a</key><array><integer>1</integer><array/><dict/></array>
            \t<key>uid</key><dict><key>CF$UID</key><integer>7</integer></dict>
            </dict>
            </plist>
            """
        let v = try parse(text)
        #expect(v["s"] == .string("a <b> & \"c\" 'd' AB"))
        #expect(v["cdata"] == .string("<raw> & text"))
        #expect(v["empty"] == .string(""))
        #expect(v["i"] == .integer(-42) && v["hex"] == .integer(31) && v["big"] == .integer(-1))
        #expect(v["r"] == .real(0.0025))
        #expect(v["t"] == .bool(true) && v["f"] == .bool(false))
        #expect(v["d"] == .date(661_348_800))
        #expect(v["data"] == .data([0, 1, 2, 255]))
        #expect(v["a"] == .array([.integer(1), .array([]), .dictionary([])]))
        #expect(v["uid"] == .uid(7))
    }

    @Test("Python's plistlib writes, this reads the same tree as from the binary form")
    func sameAsBinary() throws {
        let tree = IconStateWriter.tree(
            pages: [
                [
                    .stack(
                        "S", gridSize: "medium",
                        [IconStateWriter.Element("W", kind: "k & <k>", app: "a", extensionBundle: "e")],
                        smartRotate: false, selected: "W")
                ]
            ])
        let binary = BinaryPlistWriter.encode(tree)
        let xml = try IndependentReader.python(
            """
            import plistlib, sys
            sys.stdout.write(plistlib.dumps(plistlib.load(open(sys.argv[1], "rb")), fmt=plistlib.FMT_XML, sort_keys=False).decode())
            """, reading: binary)
        #expect(try XMLPlist.parse(Array(xml.utf8)[...]) == (try BinaryPlist.parse(binary[...])))
        #expect(try PropertyList.parse(Array(xml.utf8)[...]).form == .xml)
        #expect(try PropertyList.parse(binary[...]).form == .binary)
    }

    @Test("a keyed archive in XML reads as in binary")
    func keyedArchive() throws {
        let value = ArchiveValue.object("Thing", [("name", .string("x")), ("n", .int(3))])
        let fromXML = try KeyedArchive.decode(KeyedArchiveWriter.archive(value, xml: true)[...])
        let fromBinary = try KeyedArchive.decode(KeyedArchiveWriter.archive(value)[...])
        #expect(fromXML == fromBinary)
        #expect(fromXML["name"] == .string("x"))
    }

    @Test(
        "hostile or malformed XML is an error naming the fault, never a hang or a crash",
        arguments: [
            (#"<plist><string>a</plist>"#, "is not closed"),
            (
                #"<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaa">]><plist><string>&a;</string></plist>"#,
                "document type with declarations"
            ),
            (#"<plist><string>&a;</string></plist>"#, "not one a property list may use"),
            (#"<plist><string>&#xFFFFFFFF;</string></plist>"#, "not one a property list may use"),
            (#"<plist><integer>12x</integer></plist>"#, "is not one"),
            (#"<plist><date>2021-13-01T00:00:00Z</date></plist>"#, "is not YYYY-MM-DDTHH:MM:SSZ"),
            (#"<plist><data>A*</data></plist>"#, "not base64"),
            (#"<plist><dict><string>x</string></dict></plist>"#, "where a <key> belongs"),
            (#"<plist><script/></plist>"#, "not a property-list element"),
            (#"<plist><string>a</string></plist>trailing"#, "content after </plist>"),
            (#"<plist><string>a</string><string>b</string></plist>"#, "expected </plist>"),
            (#"<plist><!-- never closed"#, "never comes"),
            (#"<plist><dict><key>k</key>"#, "expected a tag"),
        ])
    func refused(input: String, message: String) {
        #expect {
            _ = try parse(input)
        } throws: { error in
            ((error as? WireFormatError)?.message.contains(message) ?? false)
        }
    }

    @Test("nesting past the binary reader's depth, and more values than its object limit, are refused")
    func bounds() throws {
        let deep = String(repeating: "<array>", count: 100) + String(repeating: "</array>", count: 100)
        #expect(throws: WireFormatError.self) { try parse("<plist>\(deep)</plist>") }
        let many = String(repeating: "<true/>", count: BinaryPlist.maximumObjects + 1)
        #expect {
            _ = try parse("<plist><array>\(many)</array></plist>")
        } throws: { error in
            ((error as? WireFormatError)?.message.contains("more than") ?? false)
        }
    }
}
