import { idField } from '../../helpers/fields';
import { numberBetween, type FieldSpec } from '../../helpers/fieldList';
import { optionalPositiveInteger, optionalText } from '../../helpers/validation';

/**
 * The body fields check-in and check-out share (POST /workorders/{id}/universalCheckIn|Out), in
 * the order they are checked. Check-out adds Work Completed.
 */
export const checkInOutFields: FieldSpec[] = [
	{
		property: {
			displayName: 'Latitude',
			name: 'latitude',
			type: 'string',
			default: '',
			placeholder: 'e.g. 32.7767',
			description: 'Latitude of the technician in decimal degrees, -90 to 90. Nothing is sent while it is empty.',
		},
		key: 'Latitude', check: numberBetween(-90, 90),
	},
	{
		property: {
			displayName: 'Longitude',
			name: 'longitude',
			type: 'string',
			default: '',
			placeholder: 'e.g. -96.797',
			description: 'Longitude of the technician in decimal degrees, -180 to 180. Nothing is sent while it is empty.',
		},
		key: 'Longitude', check: numberBetween(-180, 180),
	},
	{
		property: idField({
			displayName: 'User ID',
			name: 'userId',
			example: '11',
			description: 'ID of the technician user checking in or out. Leave empty for the current user.',
		}),
		key: 'UserId', check: optionalPositiveInteger,
	},
	{
		property: idField({
			displayName: 'Technician ID',
			name: 'technicianId',
			example: '4001',
			description: 'ID of the technician (of the work order\'s provider) checking in or out. Leave empty to send none.',
		}),
		key: 'TechnicianId', check: optionalPositiveInteger,
	},
	{
		property: {
			displayName: 'Number of Technicians',
			name: 'numberOfTechnicians',
			type: 'number',
			default: 1,
			description: 'How many technicians are on site (1 or more)',
		},
		key: 'NumberOfTechnicians', check: optionalPositiveInteger,
	},
	{
		property: {
			displayName: 'Comment',
			name: 'comment',
			type: 'string',
			default: '',
			description: 'Remark recorded with the activity',
		},
		key: 'Comment', check: optionalText,
	},
];
