import * as checklistSearch from './checklistSearch';
import * as dropdowns from './dropdowns';
import * as searchMethods from './listSearch';
import * as loadMethods from './loadOptions';
import { getAssets, getProviders, getTrades, searchAssets, searchLocations } from './placeSearch';

export const listSearch = { ...searchMethods, ...checklistSearch, searchLocations, searchAssets };
export const loadOptions = { ...loadMethods, ...dropdowns, getTrades, getProviders, getAssets };
