"""An OpenID provider built on Authlib (PyPI), started by the tests as "Google": the
authorization code flow with OpenID Connect's ID token (RS256) and PKCE, on loopback.

    python3 authlib_provider.py CLIENT_ID CLIENT_SECRET REDIRECT_URI [--apple PUBLIC_KEY_PEM TEAM_ID | --facebook]

REDIRECT_URI `loopback` registers any http://127.0.0.1:PORT/device/callback (RFC 8252
§7.3's loopback rule), for a server whose port is picked after this one starts.

prints "listening on http://127.0.0.1:PORT", then serves until killed. Its one user is
Gina (gina@example.com); its sign-in page asks only Allow or Deny.

--apple: as Sign in with Apple, the client secret must be a JWT (ES256) signed by the
team's key, naming the team (iss), the client (sub) and this issuer (aud); and with
response_mode=form_post the answer is posted back by a form. --facebook: as Facebook's
web login, plain OAuth 2.0, the person read from /me with the access token.
"""
import html
import json
import os
import re
import sys
import time
import warnings

warnings.filterwarnings("ignore")
os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http, on loopback only

from authlib.integrations.flask_oauth2 import AuthorizationServer  # noqa: E402
from authlib.jose import JsonWebKey  # noqa: E402
from authlib.oauth2.rfc6749 import grants  # noqa: E402
from authlib.oauth2.rfc7636 import CodeChallenge  # noqa: E402
from authlib.oidc.core import UserInfo  # noqa: E402
from authlib.oidc.core.grants import OpenIDCode  # noqa: E402
from flask import Flask, Response, request  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

CLIENT_ID, CLIENT_SECRET, REDIRECT_URI = sys.argv[1:4]
MODE = sys.argv[4] if len(sys.argv) > 4 else ""
APPLE_KEY = open(sys.argv[5]).read() if MODE == "--apple" else None
APPLE_TEAM = sys.argv[6] if MODE == "--apple" else None
TOKENS = {}
USER = {"sub": "gina-1", "email": "gina@example.com", "name": "Gina"}
KEY = JsonWebKey.generate_key("RSA", 2048, is_private=True, options={"kid": "authlib-1"})
CODES = {}
NONCES = set()
ISSUER = None  # set once the port is known


class Client:
    client_id = CLIENT_ID

    def get_client_id(self):
        return CLIENT_ID

    def get_default_redirect_uri(self):
        return REDIRECT_URI

    def get_allowed_scope(self, scope):
        return " ".join(s for s in (scope or "").split() if s in ("openid", "email", "profile"))

    def check_redirect_uri(self, redirect_uri):
        if REDIRECT_URI == "loopback":
            return re.fullmatch(r"http://127\.0\.0\.1:\d+/device/callback", redirect_uri or "") is not None
        return redirect_uri == REDIRECT_URI

    def check_client_secret(self, client_secret):
        if APPLE_KEY is None:
            return client_secret == CLIENT_SECRET
        from authlib.jose import jwt
        try:
            claims = jwt.decode(client_secret, APPLE_KEY)
            claims.validate()  # exp, iat
        except Exception:
            return False
        return (claims.header.get("alg") == "ES256" and claims["iss"] == APPLE_TEAM and claims["sub"] == CLIENT_ID
                and claims["aud"] == ISSUER and claims["exp"] - claims["iat"] <= 15777000)

    def check_endpoint_auth_method(self, method, endpoint):
        return method in ("client_secret_basic", "client_secret_post")

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type == "authorization_code"


class Code:
    def __init__(self, **fields):
        self.__dict__.update(fields)
        self.auth_time = int(time.time())

    def is_expired(self):
        return time.time() > self.auth_time + 60

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def get_acr(self):
        return None

    def get_amr(self):
        return None


def payload(req):
    # Authlib moved the request's fields to .payload (1.4); older ones keep them on the request.
    return getattr(req, "payload", None) or req


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

    def save_authorization_code(self, code, req):
        data = payload(req)
        NONCES.add(data.data.get("nonce"))
        CODES[code] = Code(
            code=code, client_id=CLIENT_ID, redirect_uri=data.redirect_uri, scope=data.scope, user=req.user,
            nonce=data.data.get("nonce"), code_challenge=data.data.get("code_challenge"),
            code_challenge_method=data.data.get("code_challenge_method"))

    def query_authorization_code(self, code, client):
        found = CODES.get(code)
        return found if found and not found.is_expired() else None

    def delete_authorization_code(self, authorization_code):
        CODES.pop(authorization_code.code, None)

    def authenticate_user(self, authorization_code):
        return authorization_code.user


class IDToken(OpenIDCode):
    def exists_nonce(self, nonce, req):
        return nonce in NONCES  # a nonce used before is refused (replay)

    def get_jwt_config(self, grant):
        return {"key": KEY.as_dict(is_private=True), "alg": "RS256", "iss": ISSUER, "exp": 600}

    def generate_user_info(self, user, scope):
        return UserInfo(sub=user["sub"], email=user["email"], email_verified=True, name=user["name"])


app = Flask(__name__)
def save_token(token, req):
    TOKENS[token["access_token"]] = req.user


server = AuthorizationServer(app, query_client=lambda client_id: Client() if client_id == CLIENT_ID else None, save_token=save_token)
server.register_grant(CodeGrant, [IDToken(require_nonce=True), CodeChallenge(required=True)])


def as_json(value):
    return Response(json.dumps(value), mimetype="application/json")


@app.get("/.well-known/openid-configuration")
def discovery():
    return as_json({
        "issuer": ISSUER, "authorization_endpoint": ISSUER + "/authorize", "token_endpoint": ISSUER + "/token",
        "jwks_uri": ISSUER + "/jwks", "response_types_supported": ["code"], "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"], "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
    })


@app.get("/jwks")
def jwks():
    return as_json({"keys": [KEY.as_dict(is_private=False)]})


@app.route("/authorize", methods=["GET", "POST"])
def authorize():
    if request.method == "GET":
        server.get_consent_grant(end_user=USER)  # refuses a bad request before any page
        query = html.escape(request.query_string.decode())
        return (f'<h1>Sign in to Onboard as Gina?</h1><form method="post" action="/authorize?{query}">'
                '<button name="decision" value="allow">Allow</button><button name="decision" value="deny">Deny</button></form>')
    answer = server.create_authorization_response(grant_user=USER if request.form.get("decision") == "allow" else None)
    if request.args.get("response_mode") != "form_post" or "Location" not in answer.headers:
        return answer
    # Apple's form_post: the answer posted to the client by a form (Apple's submits itself).
    target, _, query = answer.headers["Location"].partition("?")
    from urllib.parse import parse_qsl
    fields = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in parse_qsl(query))
    return f'<h1>Continue</h1><form method="post" action="{html.escape(target)}">{fields}<button type="submit">Continue</button></form>'


@app.get("/me")
def me():
    user = TOKENS.get(request.headers.get("Authorization", "").removeprefix("Bearer "))
    if user is None:
        return as_json({"error": {"message": "Invalid OAuth access token."}}), 401
    return as_json({"id": "fb-" + user["sub"], "email": user["email"]})


@app.post("/token")
def token():
    return server.create_token_response()


if __name__ == "__main__":
    # Threaded: a browser keeps its connection open while the relying party calls /token.
    http = make_server("127.0.0.1", 0, app, threaded=True)
    ISSUER = f"http://127.0.0.1:{http.server_port}"
    print(f"listening on {ISSUER}", flush=True)
    http.serve_forever()
