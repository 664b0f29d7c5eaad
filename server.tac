# twistd -ny server.tac : run mudwiz under twistd on its embedded defaults.
# MUDWIZ_LISTEN (a Twisted endpoint, default tcp:4000), MUDWIZ_MOTD (default motd.txt) and MUDWIZ_DATA change them.
from twisted.application import service

from mudwiz.service import tac_service

application = service.Application("mudwiz")
tac_service().setServiceParent(application)  # a store it cannot use: one line, status 1
