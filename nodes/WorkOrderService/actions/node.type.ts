import type { AllEntities } from 'n8n-workflow';

/** Every resource and its operations: an unknown pair is a compile error in the router. */
type NodeMap = {
	attachment: 'download';
	checklist: 'getQuestions';
	checklistResponse: 'submit' | 'update';
	invoice:
		| 'approve'
		| 'create'
		| 'get'
		| 'getAll'
		| 'getRateDiscrepancy'
		| 'getRequirements'
		| 'putOnHold'
		| 'recordPayment'
		| 'reject';
	proposal: 'reopen' | 'putOnHold' | 'approve' | 'reject' | 'get' | 'getAll' | 'getAttachments';
	rejectionReason: 'getAll';
	subsidiary: 'getAll';
	workOrderNote: 'getAll' | 'get' | 'create' | 'addAttachment' | 'getAttachments';
	workOrder:
		| 'get'
		| 'getAll'
		| 'checkIn'
		| 'checkOut'
		| 'create'
		| 'updateStatus'
		| 'updateScheduledDate'
		| 'updatePriority'
		| 'updateNte'
		| 'addAttachment'
		| 'getChecklistResponses';
};

export type WorkOrderServiceType = AllEntities<NodeMap>;
