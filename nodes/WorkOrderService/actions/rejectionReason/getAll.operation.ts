import { simpleListOperation } from '../common/simpleList';

export const { description, execute } = simpleListOperation('rejectionReason', '/proposals/RejectionReasons');
