// The `type` attribute of an argument element (spec section 8).

/** Types an argument element may declare; without one a value is a string. */
export const ARGUMENT_TYPES = ['number', 'boolean', 'null', 'array', 'object'] as const;
export type ArgumentType = (typeof ARGUMENT_TYPES)[number];
/** The one type `<arguments>` itself may declare: the arguments as the model wrote them. */
export const RAW_ARGUMENTS_TYPE = 'json';
