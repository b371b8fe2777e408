// The question set of bench/retrieval/retrievalQuestions (issue #35): plain-language questions a developer new to
// a codebase would ask, each with the file(s) that answer it, about a real package the project uses
// nowhere else (not a fixture, not in bench/retrieval/retrievalCorpus.ts, which skips dist-packages).
//
// Codebase: oauthlib 3.2.2 as Debian 12 ships it (package python3-oauthlib 3.2.2-1), installed at
// /usr/lib/python3/dist-packages/oauthlib: 68 Python files, 11,861 lines. Paths below are relative to
// that folder. The questions were written from the package's structure and code, avoiding its
// identifiers where a developer would not know them; `split` is fixed by a seeded hash (see
// bench/retrieval/retrievalQuestions.ts), so the held-out half stays the same from run to run.

export const QUESTION_SET = {
  package: 'oauthlib',
  version: '3.2.2',
  distribution: 'Debian 12 python3-oauthlib 3.2.2-1',
  root: '/usr/lib/python3/dist-packages/oauthlib',
  seed: 35,
} as const;

/** One question and the files (relative to the root) that answer it. */
export interface Question {
  readonly text: string;
  readonly files: readonly string[];
}

export const QUESTIONS: readonly Question[] = [
  { text: 'how do I turn on debug mode for the library?', files: ['__init__.py'] },
  { text: 'where is a notification sent when the granted permissions differ from the requested ones?', files: ['signals.py', 'oauth2/rfc6749/parameters.py'] },
  { text: 'what happens when blinker is not installed?', files: ['signals.py'] },
  { text: 'how does the library check that a string is a valid URI according to RFC 3986?', files: ['uri_validate.py'] },
  { text: 'where are random tokens generated and which characters do they use?', files: ['common.py'] },
  { text: 'how are two secrets compared without leaking timing information?', files: ['common.py'] },
  { text: 'where are HTTP headers stored so that lookups ignore upper and lower case?', files: ['common.py'] },
  { text: 'how does the request object hide passwords and tokens when it is printed?', files: ['common.py'] },
  { text: 'how are form-encoded request bodies decoded and rejected when they contain invalid characters?', files: ['common.py'] },
  { text: 'how are extra query parameters appended to an existing URL?', files: ['common.py'] },
  { text: 'where are parameters that appear more than once in a request detected?', files: ['common.py'] },
  { text: 'how is a signed JSON web token created from a private key?', files: ['common.py'] },
  { text: 'how is a nonce generated for a signed request?', files: ['common.py'] },
  { text: 'how does an OAuth 1 client sign an outgoing HTTP request?', files: ['oauth1/rfc5849/__init__.py'] },
  { text: 'where can I add my own signature method to the OAuth 1 client?', files: ['oauth1/rfc5849/__init__.py'] },
  {
    text: 'how does the OAuth 1 client put the signature in the body or the query string instead of the header?',
    files: ['oauth1/rfc5849/__init__.py', 'oauth1/rfc5849/parameters.py'],
  },
  { text: 'how is the OAuth Authorization header value built from the protocol parameters?', files: ['oauth1/rfc5849/parameters.py'] },
  { text: 'how is the signature base string constructed from the method, URI and parameters?', files: ['oauth1/rfc5849/signature.py'] },
  { text: 'how are request parameters sorted and normalized before signing?', files: ['oauth1/rfc5849/signature.py'] },
  { text: 'where is the HMAC-SHA1 signature computed and verified?', files: ['oauth1/rfc5849/signature.py'] },
  { text: 'how are RSA signatures created and checked with a public key?', files: ['oauth1/rfc5849/signature.py'] },
  { text: 'how is the plaintext signature method implemented?', files: ['oauth1/rfc5849/signature.py'] },
  { text: 'how is the base string URI normalized, removing default ports and lowercasing the host?', files: ['oauth1/rfc5849/signature.py'] },
  { text: 'how is the OAuth Authorization header parsed into key value pairs on the server?', files: ['oauth1/rfc5849/utils.py'] },
  { text: 'how are strings percent-encoded the way OAuth 1 requires?', files: ['oauth1/rfc5849/utils.py'] },
  { text: 'how does the server keep only the parameters whose names start with oauth_?', files: ['oauth1/rfc5849/utils.py'] },
  {
    text: 'where does the OAuth 1 server reject requests that carry the protocol parameters in more than one place?',
    files: ['oauth1/rfc5849/endpoints/base.py'],
  },
  { text: 'where does the OAuth 1 server check that the timestamp is recent and the nonce is present?', files: ['oauth1/rfc5849/endpoints/base.py'] },
  { text: 'where is the signature of an incoming OAuth 1 request verified against the client secret?', files: ['oauth1/rfc5849/endpoints/base.py'] },
  { text: 'where does the OAuth 1 server refuse plain HTTP requests?', files: ['oauth1/rfc5849/endpoints/base.py'] },
  { text: 'how is a temporary request token issued to a consumer?', files: ['oauth1/rfc5849/endpoints/request_token.py'] },
  { text: 'where is the callback URI of a request token validated?', files: ['oauth1/rfc5849/endpoints/request_token.py'] },
  { text: 'how is a request token exchanged for an access token using the verifier?', files: ['oauth1/rfc5849/endpoints/access_token.py'] },
  { text: 'how is the verifier created when the user authorizes the consumer?', files: ['oauth1/rfc5849/endpoints/authorization.py'] },
  { text: 'where does an API check an OAuth 1 access token before serving a protected resource?', files: ['oauth1/rfc5849/endpoints/resource.py'] },
  { text: 'how can I verify only the signature of a request without any token?', files: ['oauth1/rfc5849/endpoints/signature_only.py'] },
  { text: 'why does validation use a fake client when the real client does not exist?', files: ['oauth1/rfc5849/request_validator.py'] },
  { text: 'what characters and lengths are allowed for client keys and tokens in OAuth 1?', files: ['oauth1/rfc5849/request_validator.py'] },
  { text: 'which methods must I implement to look up client secrets for OAuth 1?', files: ['oauth1/rfc5849/request_validator.py'] },
  { text: 'how long is a request timestamp considered valid?', files: ['oauth1/rfc5849/request_validator.py', 'oauth1/rfc5849/endpoints/base.py'] },
  { text: 'what error is raised when the signature method is not supported?', files: ['oauth1/rfc5849/errors.py'] },
  {
    text: 'how does the web client build the URL that sends the user to the authorization page?',
    files: ['oauth2/rfc6749/clients/web_application.py', 'oauth2/rfc6749/parameters.py'],
  },
  {
    text: 'where is the authorization code read from the redirect back to the client?',
    files: ['oauth2/rfc6749/clients/web_application.py', 'oauth2/rfc6749/parameters.py'],
  },
  { text: 'where is the state parameter compared to detect cross-site request forgery on the client?', files: ['oauth2/rfc6749/parameters.py'] },
  { text: 'how does the client parse the JSON token response and compute when the token expires?', files: ['oauth2/rfc6749/parameters.py'] },
  { text: 'how can I relax the error when the server grants a different scope than requested?', files: ['oauth2/rfc6749/parameters.py'] },
  { text: 'how is the body of a token request assembled with the grant type and client id?', files: ['oauth2/rfc6749/parameters.py'] },
  { text: 'how does a client generate the PKCE code verifier and challenge?', files: ['oauth2/rfc6749/clients/base.py'] },
  { text: 'how does the client attach the access token to an API request header?', files: ['oauth2/rfc6749/clients/base.py', 'oauth2/rfc6749/tokens.py'] },
  { text: 'what happens when the client tries to use an expired access token?', files: ['oauth2/rfc6749/clients/base.py'] },
  { text: 'how does the client refresh an access token?', files: ['oauth2/rfc6749/clients/base.py'] },
  { text: 'how does a client ask the server to revoke a token?', files: ['oauth2/rfc6749/clients/base.py', 'oauth2/rfc6749/parameters.py'] },
  {
    text: 'how does a single-page app client read the access token from the URL fragment?',
    files: ['oauth2/rfc6749/clients/mobile_application.py', 'oauth2/rfc6749/parameters.py'],
  },
  { text: 'how does a client authenticate with a signed JWT assertion instead of a secret?', files: ['oauth2/rfc6749/clients/service_application.py'] },
  { text: 'how does a client send the user name and password directly to get a token?', files: ['oauth2/rfc6749/clients/legacy_application.py'] },
  { text: 'which client should a backend service use to get a token with only its own credentials?', files: ['oauth2/rfc6749/clients/backend_application.py'] },
  { text: 'how does a device without a browser start the device authorization flow?', files: ['oauth2/rfc8628/clients/device.py'] },
  {
    text: 'where does the server validate the redirect URI during an authorization code request?',
    files: ['oauth2/rfc6749/grant_types/authorization_code.py'],
  },
  { text: 'where is the PKCE code verifier checked against the stored challenge on the server?', files: ['oauth2/rfc6749/grant_types/authorization_code.py'] },
  { text: 'how is the SHA-256 code challenge computed on the server side?', files: ['oauth2/rfc6749/grant_types/authorization_code.py'] },
  { text: 'how is an authorization code exchanged for a token on the server?', files: ['oauth2/rfc6749/grant_types/authorization_code.py'] },
  { text: 'where does the implicit flow return the token in the redirect fragment?', files: ['oauth2/rfc6749/grant_types/implicit.py'] },
  {
    text: 'how does the server handle a refresh token request and check the requested scope is not wider?',
    files: ['oauth2/rfc6749/grant_types/refresh_token.py'],
  },
  {
    text: 'where does the server authenticate a user by name and password for the password grant?',
    files: ['oauth2/rfc6749/grant_types/resource_owner_password_credentials.py'],
  },
  { text: 'how does the server issue a token to a client acting on its own behalf?', files: ['oauth2/rfc6749/grant_types/client_credentials.py'] },
  { text: 'where are CORS headers added to token responses?', files: ['oauth2/rfc6749/grant_types/base.py'] },
  { text: 'how can I register extra validators that run before or after authorization?', files: ['oauth2/rfc6749/grant_types/base.py'] },
  { text: 'how can I change the token before it is returned to the client?', files: ['oauth2/rfc6749/grant_types/base.py'] },
  { text: 'how does the server decide between query string and fragment in the authorization redirect?', files: ['oauth2/rfc6749/grant_types/base.py'] },
  { text: 'how is a bearer access token with expiry and refresh token created on the server?', files: ['oauth2/rfc6749/tokens.py'] },
  { text: 'how is the bearer token extracted from the Authorization header of a request?', files: ['oauth2/rfc6749/tokens.py'] },
  { text: 'how is a MAC authorization header computed for a request?', files: ['oauth2/rfc6749/tokens.py'] },
  { text: 'how does the token object track scopes that were added or removed?', files: ['oauth2/rfc6749/tokens.py'] },
  {
    text: 'how does a protected API figure out which kind of token a request carries?',
    files: ['oauth2/rfc6749/endpoints/resource.py', 'oauth2/rfc6749/tokens.py'],
  },
  { text: 'where does the token endpoint choose the grant handler from the grant type parameter?', files: ['oauth2/rfc6749/endpoints/token.py'] },
  { text: 'where does the authorization endpoint choose the handler from the response type?', files: ['oauth2/rfc6749/endpoints/authorization.py'] },
  { text: 'how is a token revoked on the server?', files: ['oauth2/rfc6749/endpoints/revocation.py'] },
  { text: 'how does the server answer a token introspection request?', files: ['oauth2/rfc6749/endpoints/introspect.py'] },
  { text: 'how is the server metadata document for discovery generated and checked?', files: ['oauth2/rfc6749/endpoints/metadata.py'] },
  { text: 'how do I get a ready-made server that supports all the grant types at once?', files: ['oauth2/rfc6749/endpoints/pre_configured.py'] },
  { text: 'what happens when an endpoint is marked unavailable or throws an unexpected exception?', files: ['oauth2/rfc6749/endpoints/base.py'] },
  { text: 'where does the server reject credentials passed in the query string of a POST request?', files: ['oauth2/rfc6749/endpoints/base.py'] },
  { text: 'how is an OAuth 2 error turned into a JSON body or redirect parameters?', files: ['oauth2/rfc6749/errors.py'] },
  { text: 'how does an error produce the WWW-Authenticate header?', files: ['oauth2/rfc6749/errors.py'] },
  {
    text: 'how is an error code returned by the server mapped to an exception class on the client?',
    files: ['oauth2/rfc6749/errors.py', 'openid/connect/core/exceptions.py'],
  },
  { text: 'which methods must my storage layer implement to save authorization codes and tokens?', files: ['oauth2/rfc6749/request_validator.py'] },
  { text: 'how can refresh tokens be rotated on every use?', files: ['oauth2/rfc6749/request_validator.py'] },
  { text: 'how are scopes converted between a space-separated string and a list?', files: ['oauth2/rfc6749/utils.py'] },
  { text: 'how can I allow plain HTTP during local development?', files: ['oauth2/rfc6749/utils.py'] },
  { text: 'how is the age of a MAC token computed from its issue time?', files: ['oauth2/rfc6749/utils.py'] },
  { text: 'how is the at_hash or c_hash of an ID token computed?', files: ['openid/connect/core/grant_types/base.py'] },
  { text: 'where are prompt=none silent login and max age handled in OpenID Connect?', files: ['openid/connect/core/grant_types/base.py'] },
  { text: 'how is the claims request parameter parsed?', files: ['openid/connect/core/grant_types/base.py'] },
  {
    text: 'how does the server decide whether an authorization request is plain OAuth 2 or OpenID Connect?',
    files: ['openid/connect/core/grant_types/dispatchers.py'],
  },
  {
    text: 'where is the nonce from the authorization request put into the ID token for the code flow?',
    files: ['openid/connect/core/grant_types/authorization_code.py', 'openid/connect/core/grant_types/base.py'],
  },
  { text: 'why does the hybrid flow require a nonce?', files: ['openid/connect/core/grant_types/hybrid.py'] },
  { text: 'how does the userinfo endpoint return the claims of the authenticated user?', files: ['openid/connect/core/endpoints/userinfo.py'] },
  { text: 'which errors exist for login required or consent required in OpenID Connect?', files: ['openid/connect/core/exceptions.py'] },
  { text: 'which hooks must be implemented to sign and finalize an ID token?', files: ['openid/connect/core/request_validator.py'] },
  { text: 'how does an ID token get refreshed together with the access token?', files: ['openid/connect/core/grant_types/refresh_token.py'] },
  { text: 'how are JWT access tokens created and validated for OpenID Connect?', files: ['openid/connect/core/tokens.py'] },
];
