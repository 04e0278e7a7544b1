#ifndef REMINDERD_CSQLITE_SHIM_H
#define REMINDERD_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLite's "use a private copy" destructor for bound text and blobs: a cast Swift cannot spell.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// Double-quoted string literals off, in DML and DDL (`"name"` is an identifier, never a string,
/// so a misspelt column fails instead of comparing with a string): sqlite3_db_config is
/// variadic, which Swift cannot call.
static inline int csqlite_disable_double_quoted_strings(sqlite3 *db) {
    int result = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (result != SQLITE_OK) return result;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}
#endif
