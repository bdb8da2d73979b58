/**
 * Operator wording for the application error codes of spec 7.1 (custom /mgmt APIs). The node's
 * own message and description are kept in the error details; code 0 (no application code)
 * shows the node's message, which is the only thing that says what went wrong.
 */
interface Wording {
  name: string;
  message: string;
  hint: string;
}

const CONTACT = 'If it keeps happening, show this message to the node’s administrator.';

export const API_CODES: Record<number, Wording> = {
  4001: { name: 'UNAUTHENTICATED', message: 'The node did not accept the user name or password.', hint: 'Check the user name and password in the connection form. The password may have been changed on the node.' },
  4002: { name: 'INVALID_POWER_APPLIANCE_ACTION', message: 'That power action is not valid for the appliance.', hint: 'Check the appliance’s state and choose another action.' },
  4003: { name: 'INVALID_SLOT_NO', message: 'The slot number is not valid.', hint: 'Check the slot number of the appliance.' },
  4004: { name: 'INVALID_APPLIANCE_UUID', message: 'The node knows no appliance with that ID.', hint: 'Reload the device list; the appliance may have been removed.' },
  4005: { name: 'INVALID_CMS_ID', message: 'The node knows no cloud management system (CMS) connector with that ID.', hint: 'Reload the list of CMS connectors and pick an existing one.' },
  4007: { name: 'DUPLICATE_REQUEST', message: 'The same request is already being processed.', hint: 'Wait for the first request to finish before sending it again.' },
  4009: { name: 'COMPLETE_ERROR_STACK', message: 'The node failed while processing the request.', hint: `See the details for the node’s error stack. ${CONTACT}` },
  4010: { name: 'GROUP_NOT_FOUND', message: 'The group does not exist on the node.', hint: 'Reload and pick an existing group.' },
  4011: { name: 'USER_NOT_FOUND', message: 'The user does not exist on the node.', hint: 'Check the user name.' },
  4012: { name: 'GROUP_ALREADY_EXIST', message: 'A group with that name already exists.', hint: 'Choose another name or edit the existing group.' },
  4013: { name: 'USER_ALREADY_EXIST', message: 'A user with that name already exists.', hint: 'Choose another user name or edit the existing user.' },
  4014: { name: 'INVALID_TYPE', message: 'A value in the request has the wrong type.', hint: 'Check the fields of the form.' },
  4015: { name: 'NO_DATA_FOUND', message: 'The node found no data for the request.', hint: 'Reload; the item may have been removed.' },
  4016: { name: 'ORG_NOT_FOUND', message: 'The organization does not exist on the node.', hint: 'Reload the organizations and pick an existing one.' },
  4017: { name: 'INVALID_REQUEST', message: 'The node considers the request invalid.', hint: 'Check the values in the form; the details carry the node’s explanation.' },
  4018: { name: 'IN_USE', message: 'The item is in use and cannot be changed or removed.', hint: 'Remove what uses it first.' },
  4019: { name: 'VPEL_SCRIPT_NOT_FOUND', message: 'The script does not exist on the node.', hint: 'Check the script name.' },
  4020: { name: 'REFERENCES_IN_USE', message: 'Other items still refer to this one.', hint: 'Remove the references first.' },
  4021: { name: 'SUB_INTERFACE_FOUND', message: 'The interface still has sub-interfaces.', hint: 'Remove its sub-interfaces first.' },
  4022: { name: 'INVALID_ACCESS_TOKEN', message: 'The node does not accept the access token.', hint: 'Sign in again.' },
  4023: { name: 'INVALID_CLIENT_ID', message: 'The node knows no OAuth client with that ID.', hint: 'Check the OAuth client ID in the connection form.' },
  4024: { name: 'INVALID_CLIENT_SECRECT', message: 'The OAuth client secret is wrong.', hint: 'Enter the client secret again in the connection form.' },
  4025: { name: 'ACCESS_TOKEN_EXPIRED', message: 'The access token has expired.', hint: 'Sign in again if the console did not renew it on its own.' },
  4026: { name: 'INVALID_REFRESH_TOKEN', message: 'The node did not accept the refresh token.', hint: 'Sign in again.' },
  4027: { name: 'NO_CLIENT_ID', message: 'The request carried no OAuth client ID.', hint: 'Enter the OAuth client ID in the connection form.' },
  4028: { name: 'EXPIRED_REFRESH_TOKEN', message: 'The refresh token has expired.', hint: 'Sign in again.' },
  4029: { name: 'DATABASE_OPERATION_ERROR', message: 'The node’s database operation failed.', hint: `Try again later. ${CONTACT}` },
  4030: { name: 'DATABASE_CONSTRAINTS_UNRESOLVED', message: 'The change conflicts with existing data on the node (database constraint).', hint: 'Check for duplicates or items that depend on this one.' },
  4031: { name: 'INVALID_CMS_OPERATION', message: 'That operation is not valid for the cloud management system (CMS).', hint: 'Check the CMS connector and the operation.' },
  4032: { name: 'CMS_ORG_DELETE_FAILED_ALL', message: 'The organization could not be deleted from any cloud management system (CMS).', hint: `Check the CMS connectors. ${CONTACT}` },
  4033: { name: 'CMS_ORG_DELETE_FAILED_PARTIAL', message: 'The organization was deleted from some cloud management systems (CMS) but not all.', hint: 'Check the CMS connectors and delete the rest again.' },
  5000: { name: 'INTERNAL_SERVER_ERROR', message: 'The node had an internal error.', hint: `Try again later. ${CONTACT}` },
};

/** Message and hint for a custom error body; `nodeMessage`/`description` are the node's words. */
export function apiWording(code: number, nodeMessage: string, description: string | undefined, status: number): Wording {
  const known = API_CODES[code];
  if (known) {
    // Add the node's description when it says more than our generic sentence (e.g. which field).
    const extra = description && code !== 4001 ? ` (${description})` : '';
    return { ...known, message: `${known.message}${extra}` };
  }
  const text = [nodeMessage, description].filter((s) => s && s.trim()).join(': ');
  if (code === 0 && /forbidden/i.test(nodeMessage)) {
    return { name: 'ACCESS_FORBIDDEN', message: text ? `The node refused the action: ${text}.` : 'The node refused the action.', hint: 'The user lacks the permission for this action. Ask an administrator for a role that allows it.' };
  }
  return {
    name: code === 0 ? 'ERROR' : `CODE_${code}`,
    message: text ? `The node reported an error: ${text}${/[.!?]$/.test(text) ? '' : '.'}` : `The node reported an error (HTTP ${status}${code ? `, code ${code}` : ''}).`,
    hint: code === 0 ? 'Correct what the node names and try again.' : 'Check the request; if the problem stays, show this message to the node’s administrator.',
  };
}
