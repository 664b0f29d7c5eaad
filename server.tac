# twistd -ny server.tac : run mudwiz under twistd on its embedded defaults.
# MUDWIZ_LISTEN (a Twisted endpoint, default tcp:4000) and MUDWIZ_MOTD (default motd.txt) change them.
from twisted.application import service

from mudwiz.service import makeService

application = service.Application("mudwiz")
makeService().setServiceParent(application)
