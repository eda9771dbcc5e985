import os

import app.util
from . import util
from .models import *
from .util import load
from .util import parse as p


class Service(Audited):
    def run(self):
        load("x")
        util.parse("y")
        p("z")
        self.save()
        app.util.helper()
        os.path.join("a", "b")
        close()
        only_here()
