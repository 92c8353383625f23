"""A freedesktop notification server for tests: records every Notify call as a JSON line.

    python notification_server.py RECORD_FILE [--hang | --slow]

With ``--hang`` it accepts Notify calls and never answers them (a hung server);
with ``--slow`` it answers each one a second late (a slow server).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Annotated

from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusDict, DBusInt32, DBusSignature, DBusStr, DBusUInt32
from dbus_fast.service import ServiceInterface, dbus_method, dbus_signal

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
StringList = Annotated[list[str], DBusSignature("as")]
ServerInfo = Annotated[list[str], DBusSignature("ssss")]
Closed = Annotated[list[int], DBusSignature("uu")]
Action = Annotated[list[object], DBusSignature("us")]
Nothing = Annotated[None, DBusSignature("")]


class Notifications(ServiceInterface):
    def __init__(self, record: str, hang: bool, slow: bool) -> None:
        super().__init__(NAME)
        self.record = record
        self.hang = hang
        self.slow = slow
        self.next_id = 0

    @dbus_method(name="Notify")
    async def notify(
        self,
        app_name: DBusStr,
        replaces_id: DBusUInt32,
        app_icon: DBusStr,
        summary: DBusStr,
        body: DBusStr,
        actions: StringList,
        hints: DBusDict,
        expire_timeout: DBusInt32,
    ) -> DBusUInt32:
        with open(self.record, "a", encoding="utf-8") as handle:
            handle.write(
                json.dumps(
                    {
                        "app": app_name,
                        "summary": summary,
                        "body": body,
                        "actions": actions,
                        "time": time.time(),
                    }
                )
                + "\n"
            )
        if self.hang:
            await asyncio.Event().wait()
        if self.slow:
            await asyncio.sleep(1.0)
        self.next_id += 1
        return self.next_id

    @dbus_method(name="GetCapabilities")
    def capabilities(self) -> StringList:
        return ["body", "actions"]

    @dbus_method(name="GetServerInformation")
    def server_information(self) -> ServerInfo:
        return ["memory-audit-test", "tests", "1.0", "1.2"]

    @dbus_method(name="CloseNotification")
    def close(self, notification_id: DBusUInt32) -> Nothing:
        self.closed(notification_id, 3)

    @dbus_signal(name="NotificationClosed")
    def closed(self, notification_id: DBusUInt32, reason: DBusUInt32) -> Closed:
        return [notification_id, reason]

    @dbus_signal(name="ActionInvoked")
    def action_invoked(self, notification_id: DBusUInt32, action_key: DBusStr) -> Action:
        return [notification_id, action_key]


async def main(record: str, hang: bool, slow: bool) -> None:
    bus = await MessageBus().connect()
    bus.export(PATH, Notifications(record, hang, slow))
    await bus.request_name(NAME)
    print("ready", flush=True)
    await bus.wait_for_disconnect()  # type: ignore[no-untyped-call]


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], "--hang" in sys.argv, "--slow" in sys.argv))
