// @ts-check
'use strict';

/**
 * Part C of the service's reference (invoices, locations, assets, trades, providers) as the
 * emulator reads it: ../contract/service-reference-c.json (a copy of
 * ../../../shared/spec/service-reference-c.json). Its definition names are local to that file
 * (`Invoice`, `Location`, `Currency` there are not the main reference's), so each is registered
 * beside the main definitions under the prefix `C.` (`C.Invoice`, its references rewritten to
 * `#/definitions/C.X`): `objects.make('C.Invoice', ...)`, the OData engine (`type: 'C.Invoice'`)
 * and `readBody(ctx, 'C.InvoicePaymentRequest')` then work on part C's shapes unchanged.
 * Error bodies: `ErrorCode(s)` may hold numbers or names, as in the main reference.
 */

const RAW = require('../contract/service-reference-c.json');
const { definitions } = require('../contract/reference');

const PREFIX = 'C.';

/** @param {any} value @returns {any} */
function rewrite(value) {
	if (Array.isArray(value)) return value.map(rewrite);
	if (value && typeof value === 'object') {
		/** @type {Record<string, any>} */
		const out = {};
		for (const [k, v] of Object.entries(value)) {
			out[k] =
				k === '$ref' && typeof v === 'string'
					? v.replace('#/definitions/', `#/definitions/${PREFIX}`)
					: rewrite(v);
		}
		return out;
	}
	return value;
}

for (const [name, schema] of Object.entries(RAW.definitions)) {
	if (!definitions[PREFIX + name]) definitions[PREFIX + name] = rewrite(schema);
}
{
	const props = /** @type {Record<string, any>} */ (
		definitions[`${PREFIX}ErrorResponse`].properties
	);
	props.ErrorCode = { type: 'string', numberToo: true, nameOrNumber: true };
	props.ErrorCodes = {
		type: 'array',
		items: { type: 'string', numberToo: true, nameOrNumber: true },
	};
}

/** The main-definitions name of part C's `name`. @param {string} name */
const C = (name) => PREFIX + name;

/** A message of the OData engine without the prefix ("on type 'Invoice'"). @param {string} text */
const unprefix = (text) => String(text).split(`'${PREFIX}`).join("'");

module.exports = { RAW, C, PREFIX, unprefix };
