import type { AllEntities } from 'n8n-workflow';

/** Every resource and its operations: an unknown pair is a compile error in the router. */
type NodeMap = {
	asset: 'get' | 'getAll' | 'attachToWorkOrder';
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
	location: 'get' | 'getAll' | 'getNotes' | 'addNote';
	proposal: 'reopen' | 'putOnHold' | 'approve' | 'reject' | 'get' | 'getAll' | 'getAttachments';
	provider: 'getAll';
	rejectionReason: 'getAll';
	subsidiary: 'getAll';
	trade: 'getAll';
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
