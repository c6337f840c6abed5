#!/usr/bin/env python3
# The SQLite candidate of the persisted store (docs/offline.md "Why one snapshot file"):
# one row per todo of todos-10k (its JSON as a blob) in SQLite with WAL, through Python's sqlite3.
# Usage: python3 bench/persist_sqlite_candidate.py [../shared/bench-data/todos-10k.json]  (prints one JSON line)
import sys
import sqlite3, json, time, os, statistics
todos = json.load(open(sys.argv[1] if len(sys.argv) > 1 else '../shared/bench-data/todos-10k.json'))
rows = [(t['id'], json.dumps(t, separators=(',', ':')).encode()) for t in todos]
path = '/tmp/dataclient-sqlite-candidate.db'
def fresh():
    for s in ('', '-wal', '-shm'):
        try: os.remove(path + s)
        except FileNotFoundError: pass
    db = sqlite3.connect(path, isolation_level=None)
    db.execute('PRAGMA journal_mode=WAL'); db.execute('PRAGMA synchronous=NORMAL')
    db.execute('CREATE TABLE todos (pk INTEGER PRIMARY KEY, data BLOB)')
    return db
full, one, load = [], [], []
for r in range(5):
    db = fresh()
    t = time.perf_counter(); db.execute('BEGIN'); db.executemany('INSERT INTO todos VALUES (?,?)', rows); db.execute('COMMIT'); full.append(time.perf_counter() - t)
    t = time.perf_counter(); db.execute('BEGIN'); db.execute('UPDATE todos SET data=? WHERE pk=?', (rows[5][1], 6)); db.execute('COMMIT'); one.append(time.perf_counter() - t)
    db.close()
    t = time.perf_counter(); db = sqlite3.connect(path); n = len(db.execute('SELECT pk, data FROM todos').fetchall()); load.append(time.perf_counter() - t); db.close()
print(json.dumps({'sqlite': sqlite3.sqlite_version, 'write_all_10k_ms': round(statistics.median(full)*1e3, 1), 'write_one_ms': round(statistics.median(one)*1e3, 2), 'read_all_10k_ms': round(statistics.median(load)*1e3, 1), 'file_bytes': os.path.getsize(path), 'rows': n}))
