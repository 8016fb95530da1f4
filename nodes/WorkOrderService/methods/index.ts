import * as checklistSearch from './checklistSearch';
import * as dropdowns from './dropdowns';
import * as searchMethods from './listSearch';
import * as loadMethods from './loadOptions';

export const listSearch = { ...searchMethods, ...checklistSearch };
export const loadOptions = { ...loadMethods, ...dropdowns };
