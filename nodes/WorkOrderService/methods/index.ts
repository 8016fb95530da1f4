import * as checklistSearch from './checklistSearch';
import * as dropdowns from './dropdowns';
import { getInvoiceRejectionReasons, searchInvoices } from './invoiceSearch';
import * as searchMethods from './listSearch';
import * as loadMethods from './loadOptions';
import { getAssets, getProviders, getTrades, searchAssets, searchLocations } from './placeSearch';

export const listSearch = {
	...searchMethods,
	...checklistSearch,
	searchInvoices,
	searchLocations,
	searchAssets,
};
export const loadOptions = {
	...loadMethods,
	...dropdowns,
	getInvoiceRejectionReasons,
	getTrades,
	getProviders,
	getAssets,
};
