// @ts-check
'use strict';

/**
 * Reading work orders (service-reference.md section 7, and the contract's duplicates, recalls and
 * nearby reads): the reference's `WorkOrder` objects as the emulator stores them.
 */

const { E, json, fail, empty } = require('./http-util');
const {
	PAGE_CAP,
	visibleWorkOrders,
	requireWo,
	queryParam,
	positiveIntQuery,
	odataContext,
	odataList,
	byId,
} = require('./api-util');
const { applyODataQuery, ODataError } = require('./odata');
const { odataError, Reply } = require('./http-util');

/**
 * @typedef {import('./api-util').Handler} Handler
 * @typedef {import('./api-util').Principal} Principal
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 */

/** The values of an array query parameter: repeated (`status=a&status=b`) or comma-separated. @param {RequestContext} ctx @param {string} name */
function listQuery(ctx, name) {
	const lower = name.toLowerCase();
	/** @type {string[]} */
	const out = [];
	for (const [k, v] of Object.entries(ctx.query)) {
		if (k.toLowerCase() !== lower) continue;
		for (const one of [].concat(/** @type {any} */ (v)))
			out.push(
				...String(one)
					.split(',')
					.map((s) => s.trim())
					.filter(Boolean),
			);
	}
	return out;
}

/** Filters of GET /workorders: exact (id, status, ...) or starts-with (number, trade, ...), without regard to case. @param {RequestContext} ctx */
function listFilters(ctx) {
	const lower = (/** @type {any} */ v) => String(v ?? '').toLowerCase();
	/** @type {Array<(wo: any) => boolean>} */
	const tests = [];
	/** @param {string} name @param {(wo: any) => any} get @param {boolean} prefix */
	const add = (name, get, prefix) => {
		const values = listQuery(ctx, name).map(lower);
		if (values.length)
			tests.push((wo) =>
				values.some((v) => (prefix ? lower(get(wo)).startsWith(v) : lower(get(wo)) === v)),
			);
	};
	add('id', (wo) => wo.Id, false);
	add('status', (wo) => wo.Status.Primary, false);
	add('extendedStatus', (wo) => wo.Status.Extended, false);
	add('category', (wo) => wo.Category, false);
	add('priority', (wo) => wo.Priority, false);
	add('number', (wo) => wo.Number, true);
	add('purchaseNumber', (wo) => wo.PurchaseNumber, true);
	add('trade', (wo) => wo.Trade, true);
	return tests;
}

/**
 * GET /workorders: a bare `WorkOrder[]` (at most 50 a page), filtered by the reference's query
 * parameters; an unknown location is 400 (601), an unknown store number 400 (606).
 * @type {Handler}
 */
function listWorkOrders(emu, ctx, p) {
	const page = positiveIntQuery(ctx, 'page', 1);
	const pageSize = Math.min(positiveIntQuery(ctx, 'pageSize', PAGE_CAP), PAGE_CAP);
	let all = visibleWorkOrders(emu, p);
	const locationId = queryParam(ctx, 'locationId');
	if (locationId !== undefined && locationId !== '') {
		if (!/^\d{1,9}$/.test(locationId) || !all.some((wo) => String(wo.LocationId) === locationId)) {
			fail(400, E.BAD_LOCATION_ID, `Location ${locationId} is not a location of this account`);
		}
		all = all.filter((wo) => String(wo.LocationId) === locationId);
	}
	const storeId = queryParam(ctx, 'storeId');
	if (storeId !== undefined && storeId !== '') {
		const matching = all.filter(
			(wo) => String(wo.Location.StoreId).toLowerCase() === storeId.toLowerCase(),
		);
		if (!matching.length) fail(400, E.UNKNOWN_STORE_ID, `Store ${storeId} is not known`);
		all = matching;
	}
	const tests = listFilters(ctx);
	if (tests.length) all = all.filter((wo) => tests.every((t) => t(wo)));
	return json(200, all.slice((page - 1) * pageSize, page * pageSize));
}

/** GET /workorders/{id}: the work order; an unknown one 404. @type {Handler} */
function getWorkOrder(emu, ctx, p, params) {
	return json(200, requireWo(emu, p, params.woId));
}

/** @type {Handler} */
function odataWorkOrders(emu, ctx, p) {
	return odataList(
		emu,
		visibleWorkOrders(emu, p),
		ctx,
		odataContext(emu, 'WorkOrders'),
		'WorkOrder',
		byId,
	);
}

/** GET /odata/workorders({id}): one WorkOrder (its `$select` applied). @type {Handler} */
function odataWorkOrder(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	try {
		const { value, ...rest } = applyODataQuery([wo], ctx.query, {
			context: odataContext(emu, 'WorkOrders/$entity'),
			type: 'WorkOrder',
			time: emu.time,
		});
		return json(200, { '@odata.context': rest['@odata.context'], ...value[0] });
	} catch (e) {
		if (e instanceof ODataError) throw new Reply(odataError(e.message));
		throw e;
	}
}

/**
 * @param {number} lat1 @param {number} lon1 @param {number} lat2 @param {number} lon2
 */
function distanceKm(lat1, lon1, lat2, lon2) {
	const r = (/** @type {number} */ d) => (d * Math.PI) / 180;
	const a =
		Math.sin(r(lat2 - lat1) / 2) ** 2 +
		Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lon2 - lon1) / 2) ** 2;
	return 6371 * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

/** @type {Handler} */
function odataNearBy(emu, ctx, p, params) {
	/** @type {Record<string, number>} */
	const args = {};
	for (const part of String(params.args).split(',')) {
		if (part.trim() === '') continue;
		const m = /^\s*([A-Za-z]+)\s*=\s*(-?\d+(?:\.\d+)?)\s*$/.exec(part);
		if (!m)
			fail(
				400,
				E.BAD_PATH,
				`Service.NearBy: cannot parse argument '${part}'; expected latitude=<number>,longitude=<number>`,
			);
		args[m[1].toLowerCase()] = Number(m[2]);
	}
	const { latitude, longitude } = args;
	if (latitude === undefined || longitude === undefined)
		fail(400, E.BAD_PATH, 'Service.NearBy requires latitude and longitude');
	if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) {
		fail(
			400,
			E.BAD_PATH,
			'Service.NearBy: latitude must be within -90..90 and longitude within -180..180',
		);
	}
	const radius = args.radius !== undefined ? args.radius : 40; // km (about 25 miles)
	const withDistance = visibleWorkOrders(emu, p)
		.map((wo) => {
			const loc = emu.state.locations[wo.LocationId];
			return { wo, d: distanceKm(latitude, longitude, loc.Latitude, loc.Longitude) };
		})
		.filter((x) => x.d <= radius)
		.sort((a, b) => a.d - b.d || a.wo.Id - b.wo.Id);
	return odataList(
		emu,
		withDistance.map((x) => x.wo),
		ctx,
		odataContext(emu, 'WorkOrders'),
		'WorkOrder',
	);
}

/** @param {Emulator} emu @param {Principal} p @param {number} locationId */
function requireLocation(emu, p, locationId) {
	const loc = emu.state.locations[locationId];
	const ok =
		loc &&
		(p.providerId !== null
			? Object.values(emu.state.workOrders).some(
					(wo) => wo.LocationId === loc.Id && wo.ProviderId === p.providerId,
				)
			: loc.SubscriberId === p.subscriberId);
	if (!ok) fail(404, E.LOCATION_NOT_FOUND, `Location ${locationId} was not found`);
	return loc;
}

/** @type {Handler} */
function odataLocationWorkOrders(emu, ctx, p, params) {
	const loc = requireLocation(emu, p, params.locationId);
	const list = visibleWorkOrders(emu, p).filter((wo) => wo.LocationId === loc.Id);
	return odataList(emu, list, ctx, odataContext(emu, 'WorkOrders'), 'WorkOrder', byId);
}

/** @type {Handler} */
function odataDuplicates(emu, ctx, p, params) {
	const loc = requireLocation(emu, p, params.locationId);
	const open = visibleWorkOrders(emu, p).filter(
		(wo) => wo.LocationId === loc.Id && wo.Status.Primary !== 'COMPLETED',
	);
	/** @type {Map<string, any[]>} */
	const groups = new Map();
	for (const wo of open) {
		const key = `${wo.Trade}|${wo.Category}|${String(wo.Description).trim().toLowerCase()}`;
		groups.set(key, [...(groups.get(key) || []), wo]);
	}
	const dups = [...groups.values()].filter((g) => g.length > 1).flat();
	return odataList(emu, dups, ctx, odataContext(emu, 'WorkOrders'), 'WorkOrder', byId);
}

/** @type {Handler} */
function odataRecalls(emu, ctx, p, params) {
	const loc = requireLocation(emu, p, params.locationId);
	const list = visibleWorkOrders(emu, p).filter(
		(wo) => wo.LocationId === loc.Id && wo.RecallWorkOrder !== null,
	);
	return odataList(emu, list, ctx, odataContext(emu, 'WorkOrders'), 'WorkOrder', byId);
}

module.exports = {
	listWorkOrders,
	getWorkOrder,
	odataWorkOrders,
	odataWorkOrder,
	odataNearBy,
	odataLocationWorkOrders,
	odataDuplicates,
	odataRecalls,
	requireLocation,
};
