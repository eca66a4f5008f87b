import Iris
