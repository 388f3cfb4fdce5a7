"""Onboard's development OpenID provider checked with Authlib's client (PyPI): discovery,
the authorization code flow with PKCE S256, and the ID token validated by Authlib's own
claims rules (issuer, audience, expiry, nonce) against the provider's JWKS.

    python3 authlib_client_check.py BASE_URL EMAIL

prints the validated claims as JSON.
"""
import json
import re
import sys
import warnings

warnings.filterwarnings("ignore")

import requests  # noqa: E402
from authlib.common.security import generate_token  # noqa: E402
from authlib.integrations.requests_client import OAuth2Session  # noqa: E402
from authlib.jose import JsonWebKey, jwt  # noqa: E402
from authlib.oidc.core import CodeIDToken  # noqa: E402

base, email = sys.argv[1:3]
metadata = requests.get(base + "/dev-idp/.well-known/openid-configuration", timeout=20).json()
# A native app's loopback return address (RFC 8252 §7.3): nothing needs to listen there.
client = OAuth2Session("onboard-dev", "onboard-dev-secret", scope="openid email", redirect_uri="http://127.0.0.1:9/callback",
                       code_challenge_method="S256")
verifier, nonce = generate_token(48), generate_token(20)
address, state = client.create_authorization_url(metadata["authorization_endpoint"], nonce=nonce, code_verifier=verifier)

# The person, at the provider's sign-in page.
page = requests.get(address, timeout=20).text
fields = dict((k, v.replace("&amp;", "&").replace("&quot;", '"'))
              for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page))
fields.update({"email": email, "decision": "allow"})
answer = requests.post(base + "/dev-idp/authorize", data=fields, allow_redirects=False, timeout=20)
assert answer.status_code == 303, answer.status_code

token = client.fetch_token(metadata["token_endpoint"], authorization_response=answer.headers["Location"], code_verifier=verifier)
keys = JsonWebKey.import_key_set(requests.get(metadata["jwks_uri"], timeout=20).json())
claims = jwt.decode(token["id_token"], keys, claims_cls=CodeIDToken,
                    claims_options={"iss": {"essential": True, "value": metadata["issuer"]}},
                    claims_params={"nonce": nonce, "client_id": "onboard-dev"})
claims.validate()
print(json.dumps({"iss": claims["iss"], "sub": claims["sub"], "aud": claims["aud"], "email": claims.get("email"),
                  "alg": claims.header["alg"], "state_returned": state in answer.headers["Location"]}))
