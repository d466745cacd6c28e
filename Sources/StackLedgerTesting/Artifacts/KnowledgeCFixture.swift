/// SQL that builds a knowledgeC.db in the iOS shape (Core Data tables, structured and custom
/// metadata), for tests and benchmarks. Entity numbers differ from the macOS samples on
/// purpose (CustomMetadata 5, Event 12: join table `Z_5EVENT(Z_5CUSTOMMETADATA, Z_12EVENT)`),
/// so a reader that hard-codes them fails.
public enum KnowledgeCFixture {
    /// The schema.
    public static let schema = """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (5, 'CustomMetadata', 0, 0), (10, 'Object', 0, 0), (12, 'Event', 10, 0), (16, 'Source', 0, 0);
        CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTREAMNAME VARCHAR, ZVALUESTRING VARCHAR,
            ZVALUEINTEGER INTEGER, ZSTARTDATE TIMESTAMP, ZENDDATE TIMESTAMP, ZCREATIONDATE TIMESTAMP, ZSECONDSFROMGMT INTEGER,
            ZSTRUCTUREDMETADATA INTEGER, ZSOURCE INTEGER, ZUUID VARCHAR);
        CREATE TABLE ZSOURCE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZBUNDLEID VARCHAR, ZGROUPID VARCHAR, ZITEMID VARCHAR, ZDEVICEID VARCHAR);
        CREATE TABLE ZSTRUCTUREDMETADATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER,
            Z_DKINTENTMETADATAKEY__INTENTCLASS VARCHAR, Z_DKINTENTMETADATAKEY__INTENTVERB VARCHAR,
            Z_DKINTENTMETADATAKEY__DERIVEDINTENTIDENTIFIER VARCHAR, Z_DKINTENTMETADATAKEY__DONATEDBYSIRI INTEGER,
            Z_DKINTENTMETADATAKEY__SERIALIZEDINTERACTION BLOB,
            Z_DKRELEVANTSHORTCUTMETADATAKEY__SERIALIZEDRELEVANTSHORTCUT BLOB);
        CREATE TABLE ZCUSTOMMETADATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZNAME VARCHAR, ZSTRINGVALUE VARCHAR,
            ZINTEGERVALUE INTEGER, ZDOUBLEVALUE FLOAT, ZBINARYVALUE BLOB);
        CREATE TABLE Z_5EVENT (Z_5CUSTOMMETADATA INTEGER, Z_12EVENT INTEGER, PRIMARY KEY (Z_5CUSTOMMETADATA, Z_12EVENT));

        """

    /// SQL inserting `rows` rows spread over the streams the importer reads (and one it does
    /// not), with metadata, starting at Cocoa time `start`, one row every 7 seconds.
    public static func bulkRows(_ rows: Int, start: Double) -> String {
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO ZSOURCE (Z_PK, Z_ENT, ZBUNDLEID, ZGROUPID) SELECT i, 16, 'com.example.app' || (i % 50), 'g' || (i % 7) FROM n WHERE i % 8 = 0;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO ZSTRUCTUREDMETADATA (Z_PK, Z_ENT, Z_DKINTENTMETADATAKEY__INTENTCLASS, Z_DKINTENTMETADATAKEY__INTENTVERB,
            Z_DKINTENTMETADATAKEY__DERIVEDINTENTIDENTIFIER, Z_DKINTENTMETADATAKEY__DONATEDBYSIRI)
            SELECT i, 17, 'Intent' || (i % 20), 'Open', 'D' || i, 0 FROM n WHERE i % 8 = 0;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO ZOBJECT (Z_PK, Z_ENT, Z_OPT, ZSTREAMNAME, ZVALUESTRING, ZVALUEINTEGER, ZSTARTDATE, ZENDDATE, ZCREATIONDATE,
            ZSECONDSFROMGMT, ZSTRUCTUREDMETADATA, ZSOURCE)
        SELECT i, 12, 1,
            CASE i % 8 WHEN 0 THEN '/app/intents' WHEN 1 THEN '/app/inFocus' WHEN 2 THEN '/app/usage' WHEN 3 THEN '/display/isBacklit'
                       WHEN 4 THEN '/device/isLocked' WHEN 5 THEN '/widgets/viewed' WHEN 6 THEN '/dasd/widgetRefresh' ELSE '/safari/history' END,
            CASE i % 8 WHEN 5 THEN 'com.example.widget' || (i % 30) WHEN 6 THEN 'com.example.widget' || (i % 30) || '-budget'
                       ELSE 'com.example.app' || (i % 50) END,
            i % 2, \(start) + i * 7, \(start) + i * 7 + (i % 90), \(start) + i * 7, 3600,
            CASE i % 8 WHEN 0 THEN i END, CASE i % 8 WHEN 0 THEN i END
        FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO ZCUSTOMMETADATA (Z_PK, Z_ENT, ZNAME, ZSTRINGVALUE) SELECT i, 5, 'refreshReason', 'timeline' FROM n WHERE i % 8 = 6;
        INSERT INTO Z_5EVENT SELECT Z_PK, Z_PK FROM ZCUSTOMMETADATA;

        """
    }
}
