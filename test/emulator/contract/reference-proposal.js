'use strict';
/**
 * Part of the service's published reference (v3), copied from ../../../../shared/spec/service-reference.json
 * (definitions only, as the reference has them): the objects a proposal read answers with. The
 * contract tests of the proposal and file routes validate the emulator's answers against it.
 * `WorkOrder` is the work orders' own concern (validated by their tests) and is not repeated here.
 */
module.exports = {
	Proposal: {
		properties: {
			Id: {
				type: 'integer',
				format: 'int32',
			},
			Number: {
				type: 'string',
			},
			Description: {
				type: 'string',
			},
			Description2: {
				type: 'string',
			},
			Comments: {
				type: 'string',
			},
			Location: {
				$ref: '#/definitions/Location',
			},
			Provider: {
				$ref: '#/definitions/Provider',
			},
			Subscriber: {
				$ref: '#/definitions/Subscriber',
			},
			Trade: {
				$ref: '#/definitions/Trade',
			},
			WorkOrder: {
				$ref: '#/definitions/WorkOrder',
			},
			Currency: {
				$ref: '#/definitions/Currency',
			},
			RFP: {
				$ref: '#/definitions/Rfp',
			},
			CreatedDate: {
				type: 'string',
				format: 'date-time',
			},
			CreatedDate_dto: {
				type: 'string',
				format: 'date-time',
			},
			CreatedBy: {
				$ref: '#/definitions/UserInfo',
			},
			SubmittedTo: {
				type: 'string',
			},
			Status: {
				$ref: '#/definitions/ProposalStatus',
			},
			Attachments: {
				type: 'array',
				items: {
					$ref: '#/definitions/Attachment',
				},
			},
			AssignedTo: {
				$ref: '#/definitions/UserInfo',
			},
			ScheduledDate: {
				type: 'string',
				format: 'date-time',
			},
			ScheduledDateDto: {
				type: 'string',
				format: 'date-time',
			},
			AmountCategories: {
				type: 'array',
				items: {
					$ref: '#/definitions/ProposalCategory',
				},
			},
			UpdatedDate: {
				type: 'string',
				format: 'date-time',
			},
			UpdatedDateDto: {
				type: 'string',
				format: 'date-time',
			},
			Recommendation: {
				$ref: '#/definitions/ProposalRecommendation',
			},
			Amount: {
				type: 'number',
				format: 'double',
			},
			AssignedFromLevel: {
				type: 'string',
			},
			AssignedToLevel: {
				type: 'string',
			},
			LevelsEscalateTo: {
				type: 'array',
				items: {
					$ref: '#/definitions/EscalateTo',
				},
			},
			Actions: {
				type: 'array',
				items: {
					type: 'string',
				},
			},
			MlpRecommendations: {
				type: 'array',
				items: {
					$ref: '#/definitions/MlpRecommendation',
				},
			},
			MlpRecommendation: {
				$ref: '#/definitions/MlpRecommendation',
			},
			CurrentProposalMlpRuleSetId: {
				type: 'integer',
				format: 'int32',
			},
			CurrentProposalMlpRuleSetName: {
				type: 'string',
			},
			CurrentProposalMlpLevelId: {
				type: 'integer',
				format: 'int32',
			},
			CurrentProposalMlpLevelName: {
				type: 'string',
			},
			PoNumber: {
				type: 'string',
			},
			IsMlpLimitOverrun: {
				type: 'boolean',
			},
			NextLevelEmpty: {
				type: 'boolean',
			},
			Project: {
				$ref: '#/definitions/ProposalProject',
			},
		},
	},
	ProposalStatus: {
		properties: {
			Primary: {
				type: 'string',
			},
			Extended: {
				type: 'string',
			},
			ModifiedDate: {
				type: 'string',
				format: 'date-time',
			},
			ModifiedDate_dto: {
				type: 'string',
				format: 'date-time',
			},
			ModifiedBy: {
				type: 'string',
			},
		},
	},
	Attachment: {
		properties: {
			Id: {
				type: 'integer',
				format: 'int32',
			},
			Description: {
				type: 'string',
			},
			Name: {
				type: 'string',
			},
			TimeStamp: {
				type: 'string',
				format: 'date-time',
			},
			Uri: {
				type: 'string',
			},
			NoteId: {
				type: 'integer',
				format: 'int32',
			},
			Visibility: {
				type: 'integer',
				format: 'int32',
			},
		},
	},
	UserInfo: {
		properties: {
			Id: {
				type: 'integer',
				format: 'int32',
			},
			UserName: {
				type: 'string',
			},
			FullName: {
				type: 'string',
			},
			Email: {
				type: 'string',
			},
			LevelInfo: {
				$ref: '#/definitions/MlpLevel',
			},
		},
	},
	Trade: {
		properties: {
			Id: {
				type: 'integer',
				format: 'int32',
			},
			Name: {
				type: 'string',
			},
			SubscriberId: {
				type: 'integer',
				format: 'int32',
			},
		},
	},
	Currency: {
		properties: {
			Id: {
				type: 'integer',
				format: 'int32',
			},
			AlphabeticalCode: {
				type: 'string',
			},
			DecimalCount: {
				type: 'integer',
				format: 'int32',
			},
			Entity: {
				type: 'string',
			},
			CurrencyName: {
				type: 'string',
			},
			NumericCode: {
				type: 'string',
			},
			Rate: {
				type: 'number',
				format: 'double',
			},
		},
	},
	Location: {
		properties: {
			Id: {
				type: 'integer',
				format: 'int32',
			},
			SubscriberId: {
				type: 'integer',
				format: 'int32',
			},
			SubscriberName: {
				type: 'string',
			},
			StoreId: {
				type: 'string',
			},
			Name: {
				type: 'string',
			},
			ShortName: {
				type: 'string',
			},
			Latitude: {
				type: 'number',
				format: 'double',
			},
			Longitude: {
				type: 'number',
				format: 'double',
			},
			Distance: {
				type: 'number',
				format: 'double',
			},
			Radius: {
				type: 'number',
				format: 'double',
			},
			LocationTypeId: {
				type: 'integer',
				format: 'int32',
			},
			Address1: {
				type: 'string',
			},
			Address2: {
				type: 'string',
			},
			City: {
				type: 'string',
			},
			State: {
				type: 'string',
			},
			StateId: {
				type: 'integer',
				format: 'int32',
			},
			Region: {
				type: 'string',
			},
			District: {
				type: 'string',
			},
			Zip: {
				type: 'string',
			},
			Country: {
				type: 'string',
			},
			CountryId: {
				type: 'integer',
				format: 'int32',
			},
			ClosedDate: {
				type: 'string',
				format: 'date-time',
			},
			OpenDate: {
				type: 'string',
				format: 'date-time',
			},
			Status: {
				type: 'string',
			},
			Email: {
				type: 'string',
			},
			FaxNumber: {
				type: 'string',
			},
			Phone: {
				type: 'string',
			},
			Contact: {
				type: 'string',
			},
			HasInventory: {
				type: 'boolean',
			},
			SquareValue: {
				type: 'number',
				format: 'double',
			},
			SquareMeasure: {
				type: 'string',
			},
			TimeZoneInfoId: {
				type: 'integer',
				format: 'int32',
			},
			TimeZoneShortDescription: {
				type: 'string',
			},
			TimeZoneMsName: {
				type: 'string',
			},
			TimeZoneIanaName: {
				type: 'string',
			},
			TypeLabel: {
				type: 'string',
			},
			Supplier: {
				type: 'string',
			},
			CountyId: {
				type: 'integer',
				format: 'int32',
			},
			Notes: {
				type: 'array',
				items: {
					$ref: '#/definitions/LocationNote',
				},
			},
			TimeShiftToEST: {
				type: 'integer',
				format: 'int32',
			},
			AddressTypeId: {
				type: 'integer',
				format: 'int32',
			},
			FormattedAddress: {
				type: 'string',
			},
			LocationFormattedAddressTail: {
				type: 'string',
			},
		},
	},
	Provider: {
		properties: {
			Phone: {
				type: 'string',
			},
			FullName: {
				type: 'string',
			},
			Address1: {
				type: 'string',
			},
			Address2: {
				type: 'string',
			},
			City: {
				type: 'string',
			},
			State: {
				type: 'string',
			},
			Zip: {
				type: 'string',
			},
			Country: {
				type: 'string',
			},
			MainContact: {
				type: 'string',
			},
			DateCreated: {
				type: 'string',
				format: 'date-time',
			},
			LastUserDate: {
				type: 'string',
			},
			SuperUser: {
				type: 'string',
			},
			WebSite: {
				type: 'string',
			},
			Email: {
				type: 'string',
			},
			TaxId: {
				type: 'string',
			},
			Trade: {
				type: 'string',
			},
			ProcessingEmail: {
				type: 'string',
			},
			FaxNumber: {
				type: 'string',
			},
			SuiteFloor: {
				type: 'string',
			},
			MailInfo: {
				type: 'string',
			},
			ImageFile: {
				type: 'string',
			},
			ReturnMail: {
				type: 'string',
			},
			MailFrequency: {
				type: 'integer',
				format: 'int32',
			},
			FormId: {
				type: 'integer',
				format: 'int32',
			},
			Pager: {
				type: 'string',
			},
			NightRequest: {
				type: 'integer',
				format: 'int32',
			},
			ShortFormatEmail: {
				type: 'string',
			},
			LastTrainingDate: {
				type: 'string',
				format: 'date-time',
			},
			LastTrainingDateStr: {
				type: 'string',
			},
			IsInternal: {
				type: 'boolean',
			},
			IsOnOffShoreFeatureEnabled: {
				type: 'boolean',
			},
			Id: {
				type: 'integer',
				format: 'int32',
			},
			Name: {
				type: 'string',
			},
			DoNotDispatch: {
				type: 'boolean',
			},
		},
	},
	Subscriber: {
		properties: {
			Id: {
				type: 'integer',
				format: 'int32',
			},
			ShortName: {
				type: 'string',
			},
			Email: {
				type: 'string',
			},
			Users: {
				type: 'array',
				items: {
					$ref: '#/definitions/User',
				},
			},
			PrimaryCurrency: {
				$ref: '#/definitions/Currency',
			},
			IsOutsourcedWorkOn: {
				type: 'boolean',
			},
			Name: {
				type: 'string',
			},
			Address1: {
				type: 'string',
			},
			Address2: {
				type: 'string',
			},
			Country: {
				type: 'string',
			},
			State: {
				type: 'string',
			},
			City: {
				type: 'string',
			},
			Zip: {
				type: 'string',
			},
			Phone: {
				type: 'string',
			},
			Fax: {
				type: 'string',
			},
			ContactName: {
				type: 'string',
			},
			TimeFormat: {
				type: 'string',
			},
			DateFormat: {
				type: 'string',
			},
			DecimalSeparator: {
				type: 'string',
			},
		},
	},
	ProposalCategory: {
		properties: {
			Id: {
				type: 'integer',
				format: 'int32',
			},
			Name: {
				type: 'string',
			},
			TotalCost: {
				type: 'number',
				format: 'double',
			},
		},
	},
	ProposalProject: {
		properties: {
			Id: {
				type: 'integer',
				format: 'int32',
			},
			Name: {
				type: 'string',
			},
		},
	},
	ProposalRecommendation: {
		properties: {
			RecommendationType: {
				type: 'string',
				enum: ['None', 'StrongApprove', 'Approve', 'Reject', 'StrongReject'],
			},
			RecommendationAmounts: {
				type: 'array',
				items: {
					type: 'integer',
					format: 'int64',
				},
			},
			Currency: {
				type: 'string',
			},
			Score: {
				type: 'string',
				enum: ['None', 'APlus', 'A', 'B', 'C', 'D'],
			},
			NegativeFeedbacksRecallsPercent: {
				type: 'number',
				format: 'double',
			},
			ProviderCompliancePercent: {
				type: 'number',
				format: 'double',
			},
			ProposalId: {
				type: 'integer',
				format: 'int32',
			},
		},
	},
};
