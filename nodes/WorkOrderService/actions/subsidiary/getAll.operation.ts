import { wholeListOperation } from '../wholeList';

/** Get Many: GET /subscribers/current/subsidiaries, one unpaged list, one item per record (../wholeList.ts). */
export const { description, execute, meta } = wholeListOperation('subsidiary');
