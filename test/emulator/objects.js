// @ts-check
'use strict';

/**
 * The service's objects as its published reference has them (../contract/service-reference.json):
 * every property of the definition, in its order, nested as there, null where the emulator has
 * nothing to say ("nulls included"). `make(name, values)` refuses a property the definition does
 * not have, so the emulator cannot invent a field.
 */

const { definitions, propertyNames } = require('../contract/reference');

/**
 * @typedef {{ props: Set<string>, build: (values: Record<string, any>) => Record<string, any> }} Factory
 * @type {Map<string, Factory>}
 */
const factories = new Map();

/**
 * A compiled builder of a definition's objects (one object literal with every property in order:
 * a 50,000-work-order tenant is built in a fraction of what a loop over the names takes).
 * @param {string} name @param {Function} [Base] a class whose prototype the objects get (shortcut getters)
 * @returns {Factory}
 */
function factory(name, Base) {
	const key = Base ? `${name}:${Base.name}` : name;
	let f = factories.get(key);
	if (f) return f;
	if (!definitions[name]) throw new Error(`no definition '${name}' in the reference`);
	const names = propertyNames(name);
	const value = (/** @type {string} */ p) =>
		`v[${JSON.stringify(p)}] === undefined ? null : v[${JSON.stringify(p)}]`;
	const source = Base
		? `const C = class extends Base { constructor(v) { super(); ${names.map((p) => `this[${JSON.stringify(p)}] = ${value(p)};`).join(' ')} } }; return (v) => new C(v);`
		: `return function build(v) { return {${names.map((p) => `${JSON.stringify(p)}: ${value(p)}`).join(',\n')}}; };`;
	const build = /** @type {any} */ (new Function('Base', source))(Base);
	f = { props: new Set(names), build };
	factories.set(key, f);
	return f;
}

/** @param {string} name @returns {Record<string, any>} every property of the definition, null */
function blank(name) {
	return factory(name).build({});
}

/**
 * An object of definition `name`: every property, `values` where given, null elsewhere.
 * @param {string} name @param {Record<string, any>} values @param {Function} [Base] see factory
 */
function make(name, values, Base) {
	const f = factory(name, Base);
	for (const k in values) {
		if (!f.props.has(k)) throw new Error(`'${k}' is not a property of ${name} in the reference`);
	}
	return f.build(values);
}

/** US dollars, the currency of every fixture (one object, shared: never changed in place). */
let USD;
function usd() {
	if (USD) return USD;
	USD = make('Currency', {
		Id: 1,
		AlphabeticalCode: 'USD',
		DecimalCount: 2,
		Entity: 'UNITED STATES OF AMERICA',
		CurrencyName: 'US Dollar',
		NumericCode: '840',
		Rate: 1,
	});
	return USD;
}

/** Hours behind US Eastern of a few zones (Location.TimeShiftToEST). */
const SHIFT_TO_EST = {
	'America/New_York': 0,
	'America/Chicago': -1,
	'America/Denver': -2,
	'America/Phoenix': -2,
	'America/Los_Angeles': -3,
};

/** @param {any} loc the emulator's location record */
function locationObject(loc) {
	const zone = loc.TimeZone || 'America/New_York';
	return make('Location', {
		Id: loc.Id,
		SubscriberId: loc.SubscriberId,
		SubscriberName: loc.SubscriberName ?? null,
		StoreId: loc.StoreId,
		Name: loc.Name,
		ShortName: loc.ShortName ?? loc.StoreId,
		Latitude: loc.Latitude,
		Longitude: loc.Longitude,
		Address1: null,
		Address2: loc.Address ?? null,
		City: loc.City,
		State: loc.State,
		Zip: loc.Zip ?? null,
		Country: 'USA',
		Status: 'Open',
		Email: null,
		Phone: loc.Phone ?? null,
		TimeZoneIanaName: zone,
		TimeShiftToEST: /** @type {Record<string, number>} */ (SHIFT_TO_EST)[zone] ?? 0,
		Notes: [],
	});
}

/** @param {any} sub the emulator's subscriber record */
function subscriberObject(sub) {
	return make('Subscriber', {
		Id: sub.Id,
		Name: sub.Name,
		ShortName: sub.ShortName ?? sub.Name,
		Email: sub.Email ?? null,
		PrimaryCurrency: usd(),
		IsOutsourcedWorkOn: false,
		Country: 'USA',
		TimeFormat: 'hh:mm tt',
		DateFormat: 'MM/dd/yyyy',
		DecimalSeparator: '.',
	});
}

/** @param {any} provider the emulator's provider record */
function providerObject(provider) {
	return make('Provider', {
		Id: provider.Id,
		Name: provider.Name,
		FullName: provider.Name,
		Email: provider.Email,
		Phone: provider.Phone ?? null,
		Trade: provider.Trade ?? null,
		IsInternal: false,
		IsOnOffShoreFeatureEnabled: false,
		DoNotDispatch: provider.DoNotDispatch === true,
	});
}

/** @param {any} user the emulator's user record */
function userInfo(user) {
	return make('UserInfo', {
		Id: user.userId,
		UserName: user.username,
		FullName: user.fullName,
		Email: user.email,
		LevelInfo: null,
	});
}

module.exports = {
	blank,
	make,
	usd,
	locationObject,
	subscriberObject,
	providerObject,
	userInfo,
	SHIFT_TO_EST,
};
