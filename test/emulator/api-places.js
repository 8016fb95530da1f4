// @ts-check
'use strict';

/**
 * Locations, assets, trades and providers (service-reference-c.md, "Locations, assets, trades,
 * providers"; service-reference-c.json): part C's objects built by places.js. Routes in the format
 * of api.js ROUTES, spread in there.
 *
 * Who sees what: a subscriber user (or a child-scoped token) the locations, trades and assets of
 * its subscriber; a provider's user the locations where its provider has work orders (and their
 * trades and assets), the trades of the subscribers it works for. An unknown or invisible location
 * is refused as the reference documents for each path: GET /locations/{id} and its notes 400,
 * POST notes and the asset lists 404 (`ErrorResponse` with the reference's code names:
 * `UnknownLocation`, `NoAccessToLocation`, `InvalidLocationNoteHeader`, `AssetDoesntExist`,
 * `AssetLocationTradeDoesntCorrespondToWO`, `WorkOrderNotFound`, `EmptyTrade`), the OData trades
 * of a location 400 with `InternalErrorResponse`.
 *
 * `PUT` and `DELETE /locations/{id}` exist in the reference and are not for this connector: the
 * emulator does not serve them (405).
 */

const { json, empty, fail, Reply } = require('./http-util');
const { canSeeWo, queryParam, readBody, odataContext, odataList, byId } = require('./api-util');
const P = require('./places');

/**
 * @typedef {import('./api-util').Handler} Handler
 * @typedef {import('./api-util').Principal} Principal
 * @typedef {import('./index').Emulator} Emulator
 */

/** The locations a principal sees. @param {Emulator} emu @param {Principal} p */
function visibleLocations(emu, p) {
	const all = Object.values(emu.state.locations);
	if (p.providerId === null) return all.filter((l) => l.SubscriberId === p.subscriberId);
	const ids = new Set();
	for (const wo of emu.workOrderList()) if (wo.ProviderId === p.providerId) ids.add(wo.LocationId);
	return all.filter((l) => ids.has(l.Id));
}

/** @param {Emulator} emu @param {Principal} p @param {number} id */
function canSeeLocation(emu, p, id) {
	return visibleLocations(emu, p).find((l) => l.Id === id);
}

/**
 * The location of a path, or the reference's refusal with `status` (400 or 404).
 * @param {Emulator} emu @param {Principal} p @param {number} id @param {number} status
 */
function requireLocation(emu, p, id, status) {
	const loc = canSeeLocation(emu, p, id);
	if (loc) return loc;
	const known = !!emu.state.locations[id];
	return fail(
		status,
		/** @type {any} */ (known ? 'NoAccessToLocation' : 'UnknownLocation'),
		known ? `No access to location ${id}` : `Location ${id} was not found`,
	);
}

/** The subscribers whose trades a principal sees. @param {Emulator} emu @param {Principal} p */
function subscribersOf(emu, p) {
	if (p.providerId === null) return [p.subscriberId];
	const ids = new Set();
	for (const wo of emu.workOrderList())
		if (wo.ProviderId === p.providerId) ids.add(wo.SubscriberId);
	return [...ids].sort((a, b) => a - b);
}

// ---- locations ----------------------------------------------------------------------------------

/** GET /odata/locations: `C.Location[]`, OData. @type {Handler} */
function odataLocations(emu, ctx, p) {
	const list = visibleLocations(emu, p).map((l) => P.locationObject(emu, l));
	return odataList(emu, list, ctx, odataContext(emu, 'Locations'), 'C.Location', byId);
}

/** GET /locations/{locationId}: `C.LocationWithTimezoneName`. @type {Handler} */
function getLocation(emu, ctx, p, params) {
	const loc = requireLocation(emu, p, params.locationId, 400);
	return json(200, P.locationWithZone(emu, loc));
}

/**
 * GET /locations/{locationId}/notes[?privateNotes=true]: the reference answers one `LocationNote`:
 * the note written last (private ones only with privateNotes=true); a location without notes
 * answers a note whose fields are all null.
 * @type {Handler}
 */
function getLocationNotes(emu, ctx, p, params) {
	const loc = requireLocation(emu, p, params.locationId, 400);
	const flag = queryParam(ctx, 'privateNotes');
	if (flag !== undefined && !/^(true|false)$/i.test(flag))
		fail(
			400,
			/** @type {any} */ ('BadRequest'),
			`privateNotes must be true or false, got '${flag}'`,
		);
	const withPrivate = /^true$/i.test(flag || '');
	const notes = (emu.state.locationNotes[loc.Id] || []).filter(
		(/** @type {any} */ n) => withPrivate || !n.private,
	);
	const last = notes.reduce(
		(/** @type {any} */ a, /** @type {any} */ n) => (!a || n.at >= a.at ? n : a),
		null,
	);
	return json(
		200,
		last ? P.noteObject(last) : { Id: null, HeaderId: null, Value: null, Header: null },
	);
}

/**
 * POST /locations/{locationId}/notes (`UpdateLocationNoteHeaderApiModelRequest { Header, Value }`):
 * writes the value under the header (a new header, or a known one without regard to case) → 200
 * without a body; events LocationNoteHeaderCreated / ...Updated and LocationNotesChanged. A
 * provider's user may not (403, NoAccessToLocation); no Header → 400 InvalidLocationNoteHeader.
 * @type {Handler}
 */
function postLocationNote(emu, ctx, p, params) {
	const loc = requireLocation(emu, p, params.locationId, 404);
	if (p.providerId !== null)
		fail(
			403,
			/** @type {any} */ ('NoAccessToLocation'),
			'Only the subscriber may change the notes of its locations',
		);
	const body = readBody(ctx, 'C.UpdateLocationNoteHeaderApiModelRequest');
	const header = body.Header;
	if (typeof header !== 'string' || header.trim() === '' || header.trim().length > 100)
		fail(
			400,
			/** @type {any} */ ('InvalidLocationNoteHeader'),
			'Header is required (1 to 100 characters)',
		);
	const value = body.Value ?? '';
	if (typeof value !== 'string' || value.length > 4000)
		fail(400, /** @type {any} */ ('BadRequest'), 'Value must be text of at most 4000 characters');
	P.writeLocationNote(emu, loc, header, value, p.user);
	return empty(200);
}

// ---- trades and providers -----------------------------------------------------------------------

/** GET /odata/trades: the trades of the caller's subscriber(s), `C.Trade[]`, OData. @type {Handler} */
function odataTrades(emu, ctx, p) {
	const list = subscribersOf(emu, p).flatMap((id) => P.tradesOf(emu.state, id));
	return odataList(emu, list, ctx, odataContext(emu, 'Trades'), 'C.Trade', byId);
}

/** GET /odata/locations({locationId})/trades: the trades at the location. @type {Handler} */
function odataLocationTrades(emu, ctx, p, params) {
	const loc = canSeeLocation(emu, p, params.locationId);
	if (!loc)
		throw new Reply(
			json(400, {
				Type: 'Sender',
				Code: 'UnknownLocation',
				Message: `Location ${params.locationId} was not found`,
				RequestId: `emu-${Date.now()}`,
				InnerException: null,
				StatusCode: 'BadRequest',
			}),
		);
	const list = P.tradesAt(emu.state, loc);
	return odataList(emu, list, ctx, odataContext(emu, 'Trades'), 'C.Trade', byId);
}

/**
 * GET /providers/getbytrade?trade=NAME: the providers of that trade for the caller's subscriber
 * (`C.ProviderInfo[]`, DoNotDispatch included); a trade it does not have: `[]`; no trade: 400
 * EmptyTrade. A provider's user: itself, when it serves the trade for any of its subscribers.
 * @type {Handler}
 */
function providersByTrade(emu, ctx, p) {
	const trade = queryParam(ctx, 'trade');
	if (trade === undefined || trade.trim() === '')
		fail(400, /** @type {any} */ ('EmptyTrade'), 'The trade query parameter is required');
	const ids = new Set();
	for (const sub of subscribersOf(emu, p))
		for (const id of P.providersOf(emu.state, sub, trade))
			if (p.providerId === null || id === p.providerId) ids.add(id);
	const list = [...ids]
		.map((id) => emu.state.providers[id])
		.filter(Boolean)
		.map(P.providerInfo);
	return json(200, list);
}

// ---- assets -------------------------------------------------------------------------------------

/**
 * GET /assets/locations/{locationId}[?trade=NAME]: `AssetsInfoResponse { Assets, AssetRequired,
 * AssetEntry }`, the location's active assets (of the trade, without regard to case), by Id.
 * @type {Handler}
 */
function locationAssets(emu, ctx, p, params) {
	const loc = requireLocation(emu, p, params.locationId, 404);
	const trade = queryParam(ctx, 'trade');
	const lower = trade === undefined ? undefined : trade.trim().toLowerCase();
	const assets = Object.values(emu.state.assets)
		.filter(
			(a) =>
				a.LocationId === loc.Id &&
				(lower === undefined || lower === '' || a.Trade.toLowerCase() === lower),
		)
		.sort((a, b) => a.Id - b.Id)
		.map((a) => P.assetObject(emu, a));
	return json(200, {
		Assets: assets,
		AssetRequired: false,
		AssetEntry: null,
	});
}

/**
 * GET /assets/{assetId}: `AssetResponse`. The optional query narrows: `locationId` and `storeId`
 * must be the asset's location, `tagId` its tag, `trackingNumber` a work order the caller sees at
 * the asset's location; otherwise (and for an unknown or invisible asset) 404 AssetDoesntExist.
 * @type {Handler}
 */
function getAsset(emu, ctx, p, params) {
	const a = emu.state.assets[params.assetId];
	const missing = () =>
		fail(404, /** @type {any} */ ('AssetDoesntExist'), `Asset ${params.assetId} was not found`);
	if (!a || !canSeeLocation(emu, p, a.LocationId)) return missing();
	const loc = emu.state.locations[a.LocationId];
	const q = (/** @type {string} */ n) => {
		const v = queryParam(ctx, n);
		return v === undefined || v.trim() === '' ? undefined : v.trim();
	};
	const locationId = q('locationId');
	if (locationId !== undefined && Number(locationId) !== a.LocationId) return missing();
	const storeId = q('storeId');
	if (storeId !== undefined && storeId.toLowerCase() !== String(loc.StoreId).toLowerCase())
		return missing();
	const tagId = q('tagId');
	if (tagId !== undefined && tagId.toLowerCase() !== a.Tag.toLowerCase()) return missing();
	const tracking = q('trackingNumber');
	if (tracking !== undefined) {
		const wo = emu.state.workOrders[Number(tracking)];
		if (!wo || !canSeeWo(p, wo) || wo.LocationId !== a.LocationId) return missing();
	}
	return json(200, P.assetObject(emu, a));
}

/**
 * PUT /assets/workorders/{workorderId}/attach (`AttachAssetRequest { AssetId }`): the asset goes
 * onto the work order (`Asset`, `Assets`, `AssetCount`); 200 with an empty object. The asset must
 * be at the work order's location and of its trade (else 400
 * AssetLocationTradeDoesntCorrespondToWO); an unknown work order 400 WorkOrderNotFound; an
 * unknown asset 400 AssetDoesntExist. Attaching changes the asset (AssetUpdated).
 * @type {Handler}
 */
function attachAsset(emu, ctx, p, params) {
	const wo = emu.state.workOrders[params.workorderId];
	if (!wo || !canSeeWo(p, wo))
		fail(
			400,
			/** @type {any} */ ('WorkOrderNotFound'),
			`Work order ${params.workorderId} was not found`,
		);
	const body = readBody(ctx, 'C.AttachAssetRequest');
	const assetId = body.AssetId;
	if (typeof assetId !== 'number' || !Number.isInteger(assetId) || assetId < 1)
		fail(400, /** @type {any} */ ('BadRequest'), 'AssetId is required (an asset ID)');
	const a = emu.state.assets[assetId];
	if (!a || a.SubscriberId !== wo.SubscriberId)
		fail(400, /** @type {any} */ ('AssetDoesntExist'), `Asset ${assetId} was not found`);
	if (a.LocationId !== wo.LocationId || a.Trade.toLowerCase() !== String(wo.Trade).toLowerCase())
		fail(
			400,
			/** @type {any} */ ('AssetLocationTradeDoesntCorrespondToWO'),
			`Asset ${a.Id} (${a.Trade} at location ${a.LocationId}) does not match work order ${wo.Id} (${wo.Trade} at location ${wo.LocationId})`,
		);
	if (!a.WorkOrderIds.includes(wo.Id)) a.WorkOrderIds.push(wo.Id);
	const attached = Object.values(emu.state.assets)
		.filter((x) => x.WorkOrderIds.includes(wo.Id))
		.sort((x, y) => x.Id - y.Id)
		.map((x) => P.workOrderAsset(emu, x));
	wo.Asset = P.workOrderAsset(emu, a);
	wo.Assets = attached;
	wo.AssetCount = attached.length;
	P.updateAsset(emu, a, {}, p.user);
	return json(200, {});
}

/** @type {Array<[string, string, Handler, string | null]>} */
const PLACE_ROUTES = [
	['GET', 'odata/locations', odataLocations, 'workorders.read'],
	['GET', 'odata/locations({locationId})/trades', odataLocationTrades, 'workorders.read'],
	['GET', 'locations/{locationId}', getLocation, 'workorders.read'],
	['GET', 'locations/{locationId}/notes', getLocationNotes, 'workorders.read'],
	['POST', 'locations/{locationId}/notes', postLocationNote, 'notes.write'],
	['GET', 'odata/trades', odataTrades, 'workorders.read'],
	['GET', 'providers/getbytrade', providersByTrade, 'workorders.read'],
	['GET', 'assets/locations/{locationId}', locationAssets, 'workorders.read'],
	['GET', 'assets/{assetId}', getAsset, 'workorders.read'],
	['PUT', 'assets/workorders/{workorderId}/attach', attachAsset, 'notes.write'],
];

module.exports = { PLACE_ROUTES, visibleLocations };
