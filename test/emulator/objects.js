// @ts-check
'use strict';

/**
 * The service's objects as its published reference has them (../contract/service-reference.json):
 * every property of the definition, in its order, nested as there, null where the emulator has
 * nothing to say ("nulls included"). `make(name, values)` refuses a property the definition does
 * not have, so the emulator cannot invent a field.
 */

const { definitions, propertyNames } = require('../contract/reference');

/** @param {string} name @returns {Record<string, any>} every property of the definition, null */
function blank(name) {
	if (!definitions[name]) throw new Error(`no definition '${name}' in the reference`);
	/** @type {Record<string, any>} */
	const out = {};
	for (const p of propertyNames(name)) out[p] = null;
	return out;
}

/**
 * An object of definition `name`: every property, `values` where given, null elsewhere.
 * @param {string} name @param {Record<string, any>} values
 */
function make(name, values) {
	const out = blank(name);
	for (const [k, v] of Object.entries(values)) {
		if (!(k in out)) throw new Error(`'${k}' is not a property of ${name} in the reference`);
		out[k] = v;
	}
	return out;
}

/** US dollars, the currency of every fixture. */
function usd() {
	return make('Currency', {
		Id: 1,
		AlphabeticalCode: 'USD',
		DecimalCount: 2,
		Entity: 'UNITED STATES OF AMERICA',
		CurrencyName: 'US Dollar',
		NumericCode: '840',
		Rate: 1,
	});
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
		DoNotDispatch: false,
	});
}

/** @param {any} user the emulator's user record */
function userInfo(user) {
	return make('UserInfo', { Id: user.userId, UserName: user.username, FullName: user.fullName, Email: user.email, LevelInfo: null });
}

module.exports = { blank, make, usd, locationObject, subscriberObject, providerObject, userInfo, SHIFT_TO_EST };
