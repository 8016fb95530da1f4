// @ts-check
'use strict';

/**
 * The service's published reference (v3) as the contract test and the emulator read it:
 * service-reference.json (a copy of ../../../shared/spec/service-reference.json, the machine-readable
 * subset of the reference: 43 operations on 37 paths, 112 object definitions) with the rules of the
 * page's "Validating with the JSON" section and its conflicts table applied on top:
 *
 *   1. note IDs are int64 wherever a note ID sits (path `noteId`, `Note.Id`, `NoteSummary.Id`,
 *      `Attachment.NoteId`, `UnableObtainSignatureNoteId`), as integers or exact decimal strings;
 *   2. the checklist request matches names without case, requires the contract's fields
 *      (question, provider, technician, entity, attempt), the option ID for Selector questions only
 *      (so not here), and allows a number in `Answer`;
 *   3. the proposal status body allows `Comments` (the contract's name);
 *   -  where the reference's text relaxes a required list, the text is followed: the position of a
 *      check-in is required for repairs only, of a check-out for repairs and travel and not on
 *      Cancel; ContractInfo needs TradeName and LocationId or StoreId (SubscriberId is filled in);
 *   4. OData lists: each element of `value` against the array's item type;
 *   5. error bodies: `ErrorCode` and `ErrorCodes` may hold numbers;
 *   6. enums may come as names or as numbers;
 *   7. multipart JSON parts (`type: application/json` + `schema`), `type: text`, and array query
 *      parameters with empty `items` are taken as the JSON has them;
 *   9. the operations the contract lists that the JSON leaves out (duplicates, recalls, nearby work
 *      orders: `WorkOrder[]` OData reads) and the webhooks page's test endpoint are added.
 *
 * Plain Node, no dependencies.
 */

/** The prefix of part C's definition names. */
const PART_C = 'C.';

/**
 * A copy of a reference file whose definitions are named `<prefix><name>` and whose `$ref`s say so.
 * @param {any} raw @param {string} prefix
 */
function prefixRefs(raw, prefix) {
	const text = JSON.stringify(raw).replace(
		/"#\/definitions\/([^"]+)"/g,
		`"#/definitions/${prefix}$1"`,
	);
	const copy = JSON.parse(text);
	copy.definitions = Object.fromEntries(
		Object.entries(copy.definitions).map(([name, def]) => [prefix + name, def]),
	);
	return copy;
}

const RAW = require('./service-reference.json');
/**
 * Part C (service-reference-c.json, a copy of ../../../shared/spec/service-reference-c.json: invoices,
 * locations, assets, trades, providers; 21 paths, 24 operations, 64 definitions). Its definition names
 * are local to that file (`Invoice`, `Location`, `ErrorResponse` there are not the main file's), so
 * they are kept here under the prefix `C.` (`C.Invoice`), every `$ref` of part C rewritten to match:
 * each path is validated against its own file.
 */
const RAW_C = prefixRefs(require('./service-reference-c.json'), PART_C);

/**
 * @typedef {{ $ref?: string, type?: string, format?: string, enum?: any[], items?: Schema, properties?: Record<string, Schema>,
 *   required?: string[], requiredOf?: (value: any) => string[], int64?: boolean, anyCase?: boolean, numberToo?: boolean,
 *   nameOrNumber?: boolean, stringToo?: boolean }} Schema
 * @typedef {{ name: string, in: 'path' | 'query' | 'body' | 'formData', required: boolean, type?: string, format?: string,
 *   schema?: Schema, items?: Schema, int64?: boolean }} Parameter
 * @typedef {{ id: string, method: string, path: string, source: 'reference' | 'reference-c' | 'contract', parameters: Parameter[],
 *   responses: Record<string, { schema?: Schema }>, matcher: RegExp, literals: number, pathNames: string[] }} Operation
 */

/** @type {Record<string, Schema>} */
const definitions = {
	...JSON.parse(JSON.stringify(RAW.definitions)),
	...JSON.parse(JSON.stringify(RAW_C.definitions)),
};

// ---- rule 1: note IDs are int64 -------------------------------------------------------------------
for (const [def, prop] of [
	['Note', 'Id'],
	['NoteSummary', 'Id'],
	['Attachment', 'NoteId'],
	['CheckOutRequest', 'UnableObtainSignatureNoteId'],
	['CheckInActivity', 'UnableObtainSignatureNoteId'],
]) {
	const p = /** @type {Record<string, Schema>} */ (definitions[def].properties)[prop];
	p.format = 'int64';
	p.int64 = true;
}
// the contract: parse a note's Number without loss too
/** @type {Record<string, Schema>} */ (definitions.Note.properties).Number.int64 = true;
/** @type {Record<string, Schema>} */ (definitions.NoteSummary.properties).Number.int64 = true;

// ---- rule 2: the checklist request ----------------------------------------------------------------
definitions.CheckListResponseRequest.anyCase = true;
definitions.CheckListResponseRequest.required = [
	'CheckListQuestionId',
	'ProviderId',
	'TechnicianId',
	'EntityId',
	'Attempt',
];
/** @type {Record<string, Schema>} */ (
	definitions.CheckListResponseRequest.properties
).Answer.numberToo = true;

// ---- the text relaxes the required lists ----------------------------------------------------------
// Check-in / check-out: "Latitude, Longitude ... the text needs it for repair only"; on check-out
// "position is needed for repair and travel ..., not on Cancel". WorkTypeId 1 = repair (default), 2 = travel.
/** @param {any} body */
const workTypeOf = (body) =>
	body && body.WorkTypeId !== undefined && body.WorkTypeId !== null ? Number(body.WorkTypeId) : 1;
definitions.CheckInRequest.requiredOf = (/** @type {any} */ body) =>
	workTypeOf(body) === 1 ? ['Latitude', 'Longitude'] : [];
definitions.CheckOutRequest.requiredOf = (/** @type {any} */ body) => {
	const cancel = body && (body.ActionStatus === 'Cancel' || body.ActionStatus === 1);
	return !cancel && [1, 2].includes(workTypeOf(body)) ? ['Latitude', 'Longitude'] : [];
};
// ContractInfo: "subscriber users may omit SubscriberId, and StoreId may stand in for LocationId"
definitions.ContractInfo.requiredOf = (/** @type {any} */ body) =>
	body && body.StoreId !== undefined && body.StoreId !== null
		? ['TradeName']
		: ['LocationId', 'TradeName'];

// ---- rule 3: the proposal status body -------------------------------------------------------------
/** @type {Record<string, Schema>} */ (definitions.ProposalStatusRequest.properties).Comments = {
	type: 'string',
};

// ---- rule 5: error codes as names or numbers --------------------------------------------------------
{
	const props = /** @type {Record<string, Schema>} */ (definitions.ErrorResponse.properties);
	props.ErrorCode = { type: 'string', numberToo: true, nameOrNumber: true };
	props.ErrorCodes = {
		type: 'array',
		items: { type: 'string', numberToo: true, nameOrNumber: true },
	};
}

// ---- conflict 8: CheckListResponsePicture.UpdatedBy string, number or null ------------------------
/** @type {Record<string, Schema>} */ (definitions.CheckListPicture.properties).UpdatedBy = {
	type: 'integer',
	format: 'int32',
	numberToo: true,
	stringToo: true,
};

// ---- the conflicts 9 and 10: question type and picture flag as names or numbers (rule 6 covers every enum)

/** @param {string} ref @returns {string} */
function refName(ref) {
	return ref.replace('#/definitions/', '');
}

/** The definition a schema points at (or the schema itself). @param {Schema | undefined} schema @returns {Schema | undefined} */
function resolve(schema) {
	if (!schema) return undefined;
	if (schema.$ref) return definitions[refName(schema.$ref)];
	return schema;
}

/** The definition's name a schema points at (undefined for inline schemas). @param {Schema | undefined} schema */
function defName(schema) {
	return schema && schema.$ref ? refName(schema.$ref) : undefined;
}

// ---- operations ----------------------------------------------------------------------------------

const ODATA_OPTIONS = /** @type {Parameter[]} */ (
	[
		['$expand', 'string'],
		['$select', 'string'],
		['$filter', 'string'],
		['$orderby', 'string'],
		['$top', 'integer'],
		['$skip', 'integer'],
		['$count', 'boolean'],
	].map(([name, type]) => ({ name, in: 'query', required: false, type }))
);

const WORK_ORDER_LIST = {
	200: { schema: { type: 'array', items: { $ref: '#/definitions/WorkOrder' } } },
};

/** Operations the contract lists that the JSON leaves out (rule 9), and the webhooks page's test call. */
const CONTRACT_OPERATIONS = {
	'/odata/locations({locationId})/workorders/Service.GetDuplicates()': {
		get: {
			parameters: [
				{ name: 'locationId', in: 'path', required: true, type: 'integer', format: 'int32' },
				...ODATA_OPTIONS,
			],
			responses: WORK_ORDER_LIST,
		},
	},
	'/odata/locations({locationId})/workorders/Service.GetRecalls()': {
		get: {
			parameters: [
				{ name: 'locationId', in: 'path', required: true, type: 'integer', format: 'int32' },
				...ODATA_OPTIONS,
			],
			responses: WORK_ORDER_LIST,
		},
	},
	'/odata/workorders/Service.NearBy(latitude={latitude},longitude={longitude})': {
		get: {
			parameters: [
				{ name: 'latitude', in: 'path', required: true, type: 'number', format: 'double' },
				{ name: 'longitude', in: 'path', required: true, type: 'number', format: 'double' },
				...ODATA_OPTIONS,
			],
			responses: WORK_ORDER_LIST,
		},
	},
	'/test/webhooks/notifications': {
		post: {
			parameters: [
				{
					name: 'request',
					in: 'body',
					required: true,
					schema: { type: 'object', required: ['Url'], properties: { Url: { type: 'string' } } },
				},
			],
			responses: { 201: {}, 400: { schema: { $ref: '#/definitions/ErrorResponse' } } },
		},
	},
};

/** @param {string} s */
function escapeRegExp(s) {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A path template as a regular expression over the decoded path below /v3 (literal parts without
 * regard to case, as the service's routing; `{name}` one value without a slash).
 * @param {string} template
 */
function compileTemplate(template) {
	/** @type {string[]} */
	const names = [];
	let literals = 0;
	const body = template
		.split(/(\{\w+\})/)
		.map((part) => {
			const m = /^\{(\w+)\}$/.exec(part);
			if (m) {
				names.push(m[1]);
				return '([^/]*?)';
			}
			literals += part.replace(/\//g, '').length;
			return escapeRegExp(part);
		})
		.join('');
	return { matcher: new RegExp(`^${body}$`, 'i'), names, literals };
}

/** @type {Operation[]} */
const operations = [];
for (const [
	source,
	paths,
] of /** @type {Array<['reference' | 'reference-c' | 'contract', Record<string, any>]>} */ ([
	['reference', RAW.paths],
	['reference-c', RAW_C.paths],
	['contract', CONTRACT_OPERATIONS],
])) {
	for (const [path, methods] of Object.entries(paths)) {
		for (const [method, op] of Object.entries(methods)) {
			/** @type {Parameter[]} */
			const parameters = JSON.parse(JSON.stringify(op.parameters || []));
			for (const p of parameters) {
				// rule 1: the note ID in paths is int64
				if (p.in === 'path' && p.name === 'noteId') {
					p.format = 'int64';
					p.int64 = true;
				}
			}
			const { matcher, names, literals } = compileTemplate(path);
			operations.push({
				id: `${method.toUpperCase()} ${path}`,
				method: method.toUpperCase(),
				path,
				source,
				parameters,
				responses: op.responses || {},
				matcher,
				literals,
				pathNames: names,
			});
		}
	}
}
// the most specific template first (`/workorders/statuses` before `/workorders/{workorderId}`)
const byLiterals = [...operations].sort((a, b) => b.literals - a.literals);

/**
 * The operations whose template matches a path (below /v3), most specific first, with the path's
 * values by name.
 * @param {string} path decoded, starting with '/'
 * @returns {Array<{ operation: Operation, values: Record<string, string> }>}
 */
function matchPath(path) {
	/** @type {Array<{ operation: Operation, values: Record<string, string> }>} */
	const out = [];
	for (const operation of byLiterals) {
		const m = operation.matcher.exec(path);
		if (!m) continue;
		/** @type {Record<string, string>} */
		const values = {};
		operation.pathNames.forEach((name, i) => {
			values[name] = m[i + 1];
		});
		out.push({ operation, values });
	}
	return out;
}

/** The type of the records an operation answers with (array items or the object), e.g. 'WorkOrder'. @param {Operation} operation */
function answerType(operation) {
	const ok = operation.responses['200'] || operation.responses['201'];
	const schema = ok && ok.schema;
	if (!schema) return undefined;
	if (schema.type === 'array') return defName(schema.items);
	return defName(schema);
}

/** Whether an operation reads with OData options. @param {Operation} operation */
function isOData(operation) {
	return operation.parameters.some((p) => p.name === '$filter');
}

// ---- dates: plain date-times and their twins --------------------------------------------------------

const TWIN_SUFFIXES = ['_DTO', 'Dto', '_dto', 'DTO'];

/** @type {Map<string, { twins: Map<string, string>, plain: Map<string, string>, dates: Set<string> }>} */
const dateCache = new Map();

/**
 * The date-time properties of a definition, and which carry an offset twin (README's "Dates"
 * table): `X` → `X_DTO` (work orders, priorities), `XDto` (checklist responses, proposals),
 * `X_dto`, `XDTO` (RFPs); `Date` → `Dto` (check-in activity).
 * @param {string} name
 */
function datesOf(name) {
	let hit = dateCache.get(name);
	if (hit) return hit;
	const props = (definitions[name] && definitions[name].properties) || {};
	const dates = new Set(Object.keys(props).filter((k) => props[k].format === 'date-time'));
	/** @type {Map<string, string>} plain → twin */
	const twins = new Map();
	/** @type {Map<string, string>} twin → plain */
	const plain = new Map();
	for (const p of dates) {
		const twin =
			p === 'Date' && dates.has('Dto')
				? 'Dto'
				: TWIN_SUFFIXES.map((s) => p + s).find((t) => dates.has(t));
		if (twin) {
			twins.set(p, twin);
			plain.set(twin, p);
		}
	}
	hit = { twins, plain, dates };
	dateCache.set(name, hit);
	return hit;
}

/** The properties of a definition, in order. @param {string} name @returns {string[]} */
function propertyNames(name) {
	return Object.keys((definitions[name] && definitions[name].properties) || {});
}

/** The schema of property `prop` of definition `name` (undefined when unknown). @param {string} name @param {string} prop */
function propertySchema(name, prop) {
	const props = definitions[name] && definitions[name].properties;
	return props && Object.prototype.hasOwnProperty.call(props, prop) ? props[prop] : undefined;
}

/**
 * Walks a property path (`Location/Name`) from a definition: the schema of each step, or the step
 * that is not a property (or not an object one).
 * @param {string} name @param {string[]} path
 * @returns {{ ok: true, schema: Schema, owner: string } | { ok: false, at: number, reason: string }}
 */
function walkPath(name, path) {
	let owner = name;
	/** @type {Schema | undefined} */
	let schema;
	for (let i = 0; i < path.length; i++) {
		schema = propertySchema(owner, path[i]);
		if (!schema) return { ok: false, at: i, reason: `'${path[i]}' is not a property of ${owner}` };
		if (i < path.length - 1) {
			const next = defName(schema);
			if (!next) {
				const kind = schema.type === 'array' ? 'a collection' : `a ${schema.type || 'value'}`;
				return {
					ok: false,
					at: i,
					reason: `'${path.slice(0, i + 1).join('/')}' is ${kind}, not an object with '${path[i + 1]}'`,
				};
			}
			owner = next;
		}
	}
	return { ok: true, schema: /** @type {Schema} */ (schema), owner };
}

module.exports = {
	RAW,
	RAW_C,
	PART_C,
	definitions,
	operations,
	matchPath,
	resolve,
	defName,
	refName,
	answerType,
	isOData,
	datesOf,
	propertyNames,
	propertySchema,
	walkPath,
	CONTRACT_OPERATIONS,
};
