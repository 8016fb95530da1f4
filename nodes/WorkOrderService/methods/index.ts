import * as checklistSearch from './checklistSearch';
import * as dropdowns from './dropdowns';
import { getInvoiceRejectionReasons, searchInvoices } from './invoiceSearch';
import * as searchMethods from './listSearch';
import * as loadMethods from './loadOptions';

export const listSearch = { ...searchMethods, ...checklistSearch, searchInvoices };
export const loadOptions = { ...loadMethods, ...dropdowns, getInvoiceRejectionReasons };
