import { migrateToLatest, openDatabase } from '../src/core/db/database.ts';
import { sql } from 'kysely';
const h = openDatabase('sqlite::memory:');
await migrateToLatest(h.db);
const r = await sql`select type, name, tbl_name, sql from sqlite_master where sql like '%payments%'`.execute(h.db);
for (const x of r.rows as any[]) console.log(x.type, x.name, x.tbl_name, x.type==='table' && x.name==='payments' ? x.sql : (x.type==='table'?'':x.sql));
await h.close();
