"""The lobby's directory (mudwiz/lobby/directory.py), chosen in this one place at startup: a lobby is built with
``Local`` (a server of one process); ``makeService`` makes a cluster's node ask the other nodes instead
(``join_cluster``). Here, above the commands and the connection, the cluster is handed what it runs for its
visitors and takeovers (``Upper``), so that no module of mudwiz/cluster/ imports anything above it."""

from __future__ import annotations

from twisted.internet.interfaces import IReactorTime

from mudwiz.cluster.directory import ClusterDirectory
from mudwiz.cluster.service import ClusterService
from mudwiz.cluster.upper import Upper
from mudwiz.commands import dispatch
from mudwiz.commands.registry import route_of
from mudwiz.connection import hint
from mudwiz.lobby import Lobby
from mudwiz.restore import read_held, restore_tables


def join_cluster(lobby: Lobby, cluster: ClusterService, clock: IReactorTime) -> ClusterDirectory:
    """``lobby``'s directory from now on: the cluster's, whose parts start once the node has joined."""
    upper = Upper(dispatch=lambda session, line: dispatch(lobby, session, line), hint=hint,
                  route=route_of,
                  restore=lambda tables, held: restore_tables(lobby, tables, held), read_held=read_held)
    directory = ClusterDirectory(lobby, cluster, clock, upper)
    lobby.directory = directory
    return directory
