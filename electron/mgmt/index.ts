/** The management node client (plain Node). */
export { MgmtClient, VERIFY_PATH, type MgmtClientOptions, type MgmtProfile, type SecretsProvider, type RequestOptions } from './client';
export { OAuthSession, SESSION_ENDING, notSignedIn, type OAuthCredentials, type OAuthTransport, type OAuthSessionOptions } from './oauth-session';
export { BasicSession, basicHeader, type BasicSessionOptions } from './basic-session';
export { errorFromResponse, readJsonResponse, loginPageError, type MgmtResponse, type ErrorContext, type OAuthOperation } from './errors';
export { parseTokenResponse, parseSeconds, refreshMarginMs, type TokenSet } from './token';
export { parseCreatedClient, parseUpdatedClient, validateClientBody, oauthProfileRequired, type CreatedClient } from './oauth-clients';
export { runConnectionTest, isCredentialFailure } from './connection-test';
export { API_CODES } from './api-messages';
export { oauthWording } from './oauth-messages';
