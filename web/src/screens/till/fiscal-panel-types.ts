import type { Ok } from '../../api/client';

/** A bill's fiscal state as GET /tickets/{id}/fiscal answers it: shared by the till's fiscal panels. */
export type Fiscal = Ok<'/tickets/{id}/fiscal', 'get'>;
export type Cfdi = Fiscal['cfdis'][number];
